import { FirstLaunchSection } from './first-launch-section';
import { SimulatorDock } from './simulator-dock';
import type { SimulatorStore } from './simulator-state';
import styles from './simulator-panel.module.css';

/**
 * The simulator on a share page, which asks nothing of the app: only what a share page leads to,
 * the app's first launch after an install (after "下载谷圈App" copied the share text). In its
 * band at the foot of the screen, under the page's bottom bar (simulator-panel.module.css).
 */
export function ShareSimulatorPanel({ store }: { store: SimulatorStore }) {
  return (
    <SimulatorDock store={store} onDismissNotice={store.dismissNotice}>
      <p className={styles.hint}>
        Plays the 谷圈 app beside this share page (demo server only). Escape closes this panel.
      </p>
      <FirstLaunchSection store={store} />
    </SimulatorDock>
  );
}
