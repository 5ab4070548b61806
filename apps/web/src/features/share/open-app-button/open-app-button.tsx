import { useRef, type ReactNode } from 'react';
import { useAppPrompt } from '../open-in-app/app-prompt';
import { WeChatLaunchTag } from '../wechat/wechat-launch-tag';
import buttons from '../../../components/button.module.css';
import styles from './open-app-button.module.css';

/** The page's main action, kept at the bottom of the screen: open this item in the app. */
export function OpenAppButton({ children }: { children: ReactNode }) {
  const { openApp } = useAppPrompt();
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className={styles.dock}>
      <button
        ref={button}
        type="button"
        className={`${buttons.primary} ${styles.button}`}
        onClick={openApp}
      >
        {children}
      </button>
      <WeChatLaunchTag anchor={button} />
    </div>
  );
}
