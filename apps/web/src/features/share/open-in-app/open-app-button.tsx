import { lazy, Suspense, useRef, type ReactNode } from 'react';
import { canHaveApp } from '../../../lib/client/app-opening';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { useHydrated } from '../../../lib/dom/use-hydrated';
import { useAppPrompt } from './app-prompt';
import { useShareTexts } from '../texts/share-texts';
import { WeChatLaunchTag } from '../wechat/wechat-launch-tag';
import buttons from '../../../components/button.module.css';
import styles from './open-app-button.module.css';

/**
 * The QR code for the phone, on a desktop only: its chunk (component, texts, address) is fetched
 * after hydration there and never on a phone, so it adds nothing to the start-up code. Where the
 * chunk cannot be had, nothing is shown.
 */
const SharePhoneQr = lazy(() =>
  import('./share-phone-qr').then(
    (module): { default: (props: { className?: string }) => ReactNode } => ({
      default: module.SharePhoneQr,
    }),
    () => ({ default: () => null }),
  ),
);

/**
 * The page's main action, kept at the bottom of the screen: open this item in the app, or, when
 * the link domain said the app is missing, get the app first (with a way to open it anyway). A
 * link in the server's HTML, so a tap before the code arrives is never dead; the line under it
 * says what a tap towards the store copies. On a desktop, which cannot have the app, the item's QR
 * code comes first, for the visitor's phone (once hydrated), and the dock stays in its place.
 */
export function OpenAppButton({ children }: { children: ReactNode }) {
  const text = useShareTexts();
  const { openApp, getApp, openHref, getHref, schemeHref, appMissing } = useAppPrompt();
  const button = useRef<HTMLAnchorElement>(null);
  // Share pages are rendered once for every device (the server's copy serves all): what depends on
  // the device waits for hydration, so the markup hydrates as the server sent it.
  const hydrated = useHydrated();
  const client = useClientInfo();
  const desktop = hydrated && !canHaveApp(client);
  return (
    <div className={desktop ? `${styles.dock} ${styles.desktop}` : styles.dock}>
      {desktop ? (
        <Suspense fallback={null}>
          <SharePhoneQr className={styles.qr} />
        </Suspense>
      ) : null}
      {appMissing ? (
        <a
          href={getHref}
          className={`${buttons.primary} ${styles.button}`}
          onClick={getApp}
          data-app-tap="get"
        >
          {text.getApp}
        </a>
      ) : (
        <>
          <a
            ref={button}
            href={openHref}
            className={`${buttons.primary} ${styles.button}`}
            onClick={openApp}
            data-app-tap="open"
          >
            {children}
          </a>
          <WeChatLaunchTag anchor={button} />
        </>
      )}
      <p className={styles.note}>{text.copyNote}</p>
      {appMissing ? (
        <a href={schemeHref} className={styles.installed}>
          {text.alreadyInstalled}
        </a>
      ) : null}
    </div>
  );
}
