import { readLinkOrigin } from '../../lib/app-links/read-link-origin';
import { describeFirstLaunch, firstLaunchAfterInstall, simulatedInstallId } from './first-launch';
import type { SimulatorStore } from './simulator-state';
import styles from './simulator-panel.module.css';

/**
 * "First launch after install": the app's first launch after its installation reads the
 * clipboard once (docs/app-links.md), claims a share text's code and says where it opens. In both
 * panels: the in-app pages' and the share pages' (where the share text is copied).
 */
export function FirstLaunchSection({ store }: { store: SimulatorStore }) {
  const firstLaunch = async () => {
    let clipboardText: string;
    try {
      clipboardText = await navigator.clipboard.readText();
    } catch {
      store.notify(
        'First launch: the clipboard was not read (not allowed), so the app opens on its start screen.',
      );
      return;
    }
    const launch = await firstLaunchAfterInstall({
      clipboardText,
      linkOrigin: readLinkOrigin(document),
      installId: simulatedInstallId(sessionStorage),
      fetchFn: fetch.bind(window),
    });
    // The app clears the share text it claimed, so no later launch finds it again.
    if (launch.outcome === 'opens' && launch.by === 'code')
      await navigator.clipboard.writeText('').catch(() => undefined);
    store.notify(describeFirstLaunch(launch));
  };

  return (
    <div className={styles.field}>
      <p className={styles.hint}>
        A new install’s first launch reads the clipboard once for a share page’s share text (the
        browser asks, as the phone would) and opens where it points.
      </p>
      <button type="button" className={styles.button} onClick={() => void firstLaunch()}>
        First launch after install
      </button>
    </div>
  );
}
