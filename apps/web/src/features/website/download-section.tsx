import { lazy, Suspense, useId, type ReactNode } from 'react';
import { canHaveApp, needsBrowserForStores } from '../../lib/client/app-opening';
import { useClientInfo } from '../../lib/client/client-info-context';
import { useHydrated } from '../../lib/dom/use-hydrated';
import { storeOrder, withAppName, type Store, type WebsiteTexts } from './website-content';
import { StoreLink } from './store-link';
import iosUrl from './illustrations/store-ios.svg';
import androidUrl from './illustrations/store-android.svg';
import page from './website-page.module.css';
import styles from './download-section.module.css';

/**
 * A desktop's QR code for the phone: its chunk is fetched after hydration on a desktop only, so
 * the website's start-up code does not grow; where it cannot be had, nothing is shown.
 */
const DownloadQr = lazy(() =>
  import('./download-qr').then(
    (module): { default: (props: { className?: string }) => ReactNode } => ({
      default: module.DownloadQr,
    }),
    () => ({ default: () => null }),
  ),
);

const storeIcons: Readonly<Record<Store, string>> = { ios: iosUrl, android: androidUrl };

export function DownloadSection({
  text,
  onNeedBrowser,
}: {
  text: WebsiteTexts['download'];
  onNeedBrowser: () => void;
}) {
  const client = useClientInfo();
  const { platform, inAppBrowser } = client;
  const detailId = useId();
  const hydrated = useHydrated();
  return (
    <section id="download" className={page.section} aria-labelledby="download-title">
      <div className={page.container}>
        <div className={styles.panel}>
          <h2 id="download-title" className={page.sectionTitle}>
            {text.heading}
          </h2>
          <p className={page.sectionIntro}>{text.intro}</p>
          {needsBrowserForStores(client) ? (
            <div className={styles.notice}>
              <p className={styles.noticeText}>
                {withAppName(text.inAppNotice, inAppBrowser, text.inAppNames)}
              </p>
              <button
                type="button"
                className={styles.noticeButton}
                aria-haspopup="dialog"
                onClick={onNeedBrowser}
              >
                {text.showGuide}
              </button>
            </div>
          ) : null}
          <ul className={styles.stores}>
            {storeOrder(platform).map((store, index) => (
              <li key={store} className={styles.store}>
                <img
                  className={styles.storeIcon}
                  src={storeIcons[store]}
                  width={40}
                  height={40}
                  alt=""
                />
                <div className={styles.storeBody}>
                  <StoreLink
                    store={store}
                    prominent={index === 0}
                    onNeedBrowser={onNeedBrowser}
                    describedBy={`${detailId}-${store}`}
                  >
                    {text[store].label}
                  </StoreLink>
                  <p id={`${detailId}-${store}`} className={styles.detail}>
                    {text[store].detail}
                  </p>
                </div>
              </li>
            ))}
          </ul>
          {hydrated && !canHaveApp(client) ? (
            <Suspense fallback={null}>
              <DownloadQr className={styles.qr} />
            </Suspense>
          ) : null}
        </div>
      </div>
    </section>
  );
}
