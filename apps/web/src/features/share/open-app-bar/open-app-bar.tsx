import { useRef, useSyncExternalStore } from 'react';
import { AppMark } from '../../../components/app-mark/app-mark';
import { useAppPrompt } from '../open-in-app/app-prompt';
import { useShareTexts } from '../share-texts';
import { WeChatLaunchTag } from '../wechat/wechat-launch-tag';
import { dismissAppBar, isAppBarDismissed, subscribeToAppBar } from './dismissed-store';
import styles from './open-app-bar.module.css';

/**
 * The bar at the top of a share page: the app, one line, "open", and a close button. Never a
 * wall: it stays small, and once closed it stays closed for the session.
 */
export function OpenAppBar() {
  const text = useShareTexts();
  const { openApp } = useAppPrompt();
  const dismissed = useSyncExternalStore(subscribeToAppBar, isAppBarDismissed, () => false);
  const open = useRef<HTMLButtonElement>(null);
  if (dismissed) return null;
  return (
    <aside className={styles.bar} aria-label={text.appName}>
      <AppMark />
      <p className={styles.text}>
        <strong className={styles.name}>{text.appName}</strong>
        <span className={styles.line}>{text.appBarText}</span>
      </p>
      <button ref={open} type="button" className={styles.open} onClick={openApp}>
        {text.appBarOpen}
      </button>
      <WeChatLaunchTag anchor={open} />
      <button
        type="button"
        className={styles.dismiss}
        aria-label={text.appBarDismiss}
        onClick={dismissAppBar}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M7 7l10 10M17 7L7 17" />
        </svg>
      </button>
    </aside>
  );
}
