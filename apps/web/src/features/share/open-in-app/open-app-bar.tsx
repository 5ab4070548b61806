import { useRef, useSyncExternalStore } from 'react';
import { AppMark } from '../../../components/app-mark/app-mark';
import { useAppPrompt } from './app-prompt';
import { useShareTexts } from '../texts/share-texts';
import { WeChatLaunchTag } from '../wechat/wechat-launch-tag';
import { dismissAppBar, isAppBarDismissed, subscribeToAppBar } from './dismissed-store';
import styles from './open-app-bar.module.css';

/**
 * The bar at the top of a share page: the app, one line, "open" (or, when the link domain said
 * the app is missing, "get"), and a close button. `noItem`: the page shows no item (removed,
 * private, …), so the bar does not promise to come back to it. Never a wall: it stays small, and once closed it
 * stays closed for the session. "Open" is a link in the server's HTML (the item's Universal Link),
 * so a tap before the page's code arrives still leads somewhere.
 */
export function OpenAppBar({ noItem = false }: { noItem?: boolean }) {
  const text = useShareTexts();
  const { openApp, getApp, openHref, getHref, appMissing } = useAppPrompt();
  const dismissed = useSyncExternalStore(subscribeToAppBar, isAppBarDismissed, () => false);
  const open = useRef<HTMLAnchorElement>(null);
  if (dismissed) return null;
  return (
    <aside className={styles.bar} aria-label={text.appName}>
      <AppMark />
      <p className={styles.text}>
        <strong className={styles.name}>{text.appName}</strong>
        <span className={styles.line}>
          {appMissing
            ? noItem
              ? text.appMissingNoItemBarText
              : text.appMissingBarText
            : text.appBarText}
        </span>
      </p>
      {appMissing ? (
        <a href={getHref} className={styles.open} onClick={getApp} data-app-tap="get">
          {text.appBarGet}
        </a>
      ) : (
        <>
          <a
            ref={open}
            href={openHref}
            className={styles.open}
            onClick={openApp}
            data-app-tap="open"
          >
            {text.appBarOpen}
          </a>
          <WeChatLaunchTag anchor={open} />
        </>
      )}
      <button
        type="button"
        className={styles.dismiss}
        aria-label={text.appBarDismiss}
        onClick={dismissAppBar}
        data-app-bar-dismiss
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M7 7l10 10M17 7L7 17" />
        </svg>
      </button>
    </aside>
  );
}
