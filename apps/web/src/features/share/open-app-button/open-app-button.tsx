import { useRef, type ReactNode } from 'react';
import { useAppPrompt } from '../open-in-app/app-prompt';
import { useShareTexts } from '../share-texts';
import { WeChatLaunchTag } from '../wechat/wechat-launch-tag';
import buttons from '../../../components/button.module.css';
import styles from './open-app-button.module.css';

/**
 * The page's main action, kept at the bottom of the screen: open this item in the app, or, when
 * the link domain said the app is missing, get the app first (with a way to open it anyway). A
 * link in the server's HTML, so a tap before the code arrives is never dead; the line under it
 * says what a tap towards the store copies.
 */
export function OpenAppButton({ children }: { children: ReactNode }) {
  const text = useShareTexts();
  const { openApp, getApp, openHref, getHref, schemeHref, appMissing } = useAppPrompt();
  const button = useRef<HTMLAnchorElement>(null);
  return (
    <div className={styles.dock}>
      {appMissing ? (
        <a href={getHref} className={`${buttons.primary} ${styles.button}`} onClick={getApp}>
          {text.getApp}
        </a>
      ) : (
        <>
          <a
            ref={button}
            href={openHref}
            className={`${buttons.primary} ${styles.button}`}
            onClick={openApp}
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
