import type { MouseEvent, ReactNode } from 'react';
import { needsBrowserForStores } from '../../lib/client/app-opening';
import { useClientInfo } from '../../lib/client/client-info-context';
import { storeUrls, type Store } from './website-content';
import styles from './store-link.module.css';

/**
 * A link to the App Store or to the Android package. Inside apps whose web views cannot reach a
 * store (WeChat, Douyin, …; see app-opening.ts), the tap opens the "open in browser" guide instead.
 */
export function StoreLink({
  store,
  prominent,
  onNeedBrowser,
  describedBy,
  children,
}: {
  store: Store;
  /** The visitor's own platform: the filled button; the other store gets the outlined one. */
  prominent: boolean;
  onNeedBrowser: () => void;
  describedBy?: string;
  children: ReactNode;
}) {
  const blocked = needsBrowserForStores(useClientInfo());
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    if (!blocked) return;
    event.preventDefault();
    onNeedBrowser();
  }
  return (
    <a
      href={storeUrls[store]}
      className={`${styles.link} ${prominent ? styles.prominent : styles.plain}`}
      data-store={store}
      aria-describedby={describedBy}
      aria-haspopup={blocked ? 'dialog' : undefined}
      onClick={handleClick}
    >
      {children}
    </a>
  );
}
