import { useId, useRef, useState, useSyncExternalStore } from 'react';
import { ModalDialog } from '../modal-dialog/modal-dialog';
import { copyToClipboard } from './copy-to-clipboard';
import arrowUrl from './arrow.svg';
import styles from './open-in-browser-guide.module.css';

/** Every text of the guide: each page that shows it passes its own, in the page's language. */
export interface OpenInBrowserGuideTexts {
  /** The dialog's heading and accessible name. */
  title: string;
  /** What to do, in order, e.g. 点击右上角的 ··· 按钮, 选择「在浏览器打开」. */
  steps: readonly string[];
  /** Why, e.g. 微信内无法直接下载安装 App. */
  hint?: string;
  copyIntro: string;
  /** Label of the read-only field that shows the link. */
  linkLabel: string;
  copy: string;
  copied: string;
  copyFailed: string;
  close: string;
}

export interface OpenInBrowserGuideProps {
  open: boolean;
  onClose: () => void;
  texts: OpenInBrowserGuideTexts;
  /** The link to copy; the current page's address when not given. */
  url?: string;
  /** Told when the link reached the clipboard (the share funnel counts it). */
  onCopied?: () => void;
}

/**
 * The full-screen guide for WeChat, QQ and Weibo, whose web views neither download apps nor open
 * them: it points at the menu in the top-right corner (their "open in browser") and offers to copy
 * the link. A modal dialog: focus moves in and stays, Escape closes, focus goes back.
 */
export function OpenInBrowserGuide({ open, ...props }: OpenInBrowserGuideProps) {
  return open ? <GuideDialog {...props} /> : null;
}

function subscribeToLocation(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener('hashchange', onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener('hashchange', onChange);
  };
}

function GuideDialog({ onClose, texts, url, onCopied }: Omit<OpenInBrowserGuideProps, 'open'>) {
  const titleId = useId();
  const linkId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const pageUrl = useSyncExternalStore(
    subscribeToLocation,
    () => window.location.href,
    () => '',
  );
  const link = url ?? pageUrl;

  async function copyLink() {
    const copied = await copyToClipboard(link, inputRef.current);
    setCopyState(copied ? 'copied' : 'failed');
    if (copied) onCopied?.();
    else inputRef.current?.select();
  }

  return (
    <ModalDialog labelledBy={titleId} onClose={onClose} className={styles.overlay}>
      <img className={styles.arrow} src={arrowUrl} width={120} height={120} alt="" />
      <div className={styles.content}>
        <h2 id={titleId} className={styles.title}>
          {texts.title}
        </h2>
        <ol className={styles.steps}>
          {texts.steps.map((step, index) => (
            <li key={index} className={styles.step}>
              <span className={styles.stepNumber} aria-hidden="true">
                {index + 1}
              </span>
              <span>{step}</span>
            </li>
          ))}
        </ol>
        {texts.hint ? <p className={styles.hint}>{texts.hint}</p> : null}
        <div className={styles.copyBox}>
          <p className={styles.copyIntro}>{texts.copyIntro}</p>
          <label className={styles.linkLabel} htmlFor={linkId}>
            {texts.linkLabel}
          </label>
          <input
            ref={inputRef}
            id={linkId}
            className={styles.link}
            type="text"
            readOnly
            value={link}
            onFocus={(event) => {
              event.currentTarget.select();
            }}
          />
          <button
            type="button"
            className={styles.copy}
            onClick={() => {
              void copyLink();
            }}
          >
            {texts.copy}
          </button>
          <p className={styles.status} role="status">
            {copyState === 'copied' ? texts.copied : copyState === 'failed' ? texts.copyFailed : ''}
          </p>
        </div>
        <button type="button" className={styles.close} onClick={onClose}>
          {texts.close}
        </button>
      </div>
    </ModalDialog>
  );
}
