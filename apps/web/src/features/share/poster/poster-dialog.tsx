import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Poster } from '@guquan/contract/poster';
import type { ShareKind } from '@guquan/contract/share-paths';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { useLanguage } from '../../../lib/i18n/language-context';
import { LabelledDialog } from '../../../components/modal-dialog/labelled-dialog';
import buttons from '../../../components/button.module.css';
import { fetchPoster } from './poster-api';
import { posterTexts } from './poster-texts';
import styles from './poster-dialog.module.css';

type Phase =
  { type: 'making' } | { type: 'ready'; poster: Poster; shown: boolean } | { type: 'failed' };

/**
 * The share poster, full screen in the site's modal dialog: the picture the server made (the item
 * with a QR code of its link), to save and post where links travel badly. Inside WeChat, which
 * lets a page download nothing, the picture is saved by pressing and holding it (WeChat's own
 * menu); elsewhere a button saves it.
 */
export interface PosterDialogProps {
  kind: ShareKind;
  id: string;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}

export function PosterDialog({ kind, id, onClose, returnFocus }: PosterDialogProps) {
  const language = useLanguage();
  const text = posterTexts(language);
  const inWeChat = useClientInfo().inAppBrowser === 'wechat';
  const closeRef = useRef<HTMLButtonElement>(null);
  const [phase, setPhase] = useState<Phase>({ type: 'making' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    void fetchPoster(kind, id, language, controller.signal).then((poster) => {
      if (controller.signal.aborted) return;
      setPhase(poster ? { type: 'ready', poster, shown: false } : { type: 'failed' });
    });
    return () => {
      controller.abort();
    };
  }, [kind, id, language, attempt]);

  const retry = () => {
    setPhase({ type: 'making' });
    setAttempt((count) => count + 1);
  };
  const ready = phase.type === 'ready' ? phase : undefined;

  return (
    <LabelledDialog
      title={text.title}
      titleClassName={styles.title}
      onClose={onClose}
      initialFocus={closeRef}
      returnFocus={returnFocus}
      className={styles.dialog}
    >
      {({ heading, descriptionId: hintId }) => (
        <>
          <div className={styles.bar}>
            {heading}
            <button ref={closeRef} type="button" className={styles.close} onClick={onClose}>
              <span aria-hidden="true">×</span>
              <span className="visually-hidden">{text.close}</span>
            </button>
          </div>
          <div
            className={styles.stage}
            aria-busy={phase.type === 'making' || (ready && !ready.shown)}
          >
            {ready ? (
              <img
                className={styles.poster}
                src={ready.poster.url}
                alt={ready.poster.alt}
                width={ready.poster.width}
                height={ready.poster.height}
                onLoad={() => {
                  setPhase({ ...ready, shown: true });
                }}
                onError={() => {
                  setPhase({ type: 'failed' });
                }}
              />
            ) : null}
            {phase.type === 'making' || (ready && !ready.shown) ? (
              <p role="status" className={styles.status}>
                {text.making}
              </p>
            ) : null}
            {phase.type === 'failed' ? (
              <div className={styles.failed}>
                <p role="alert">{text.failed}</p>
                <button type="button" className={buttons.secondary} onClick={retry}>
                  {text.retry}
                </button>
              </div>
            ) : null}
          </div>
          <div className={styles.actions}>
            {inWeChat ? (
              <p id={hintId} className={styles.hint}>
                {text.longPress}
              </p>
            ) : (
              <>
                {ready?.shown ? (
                  <a
                    className={`${buttons.primary} ${styles.save}`}
                    href={ready.poster.url}
                    download={`guquan-${kind}-${id}.jpg`}
                  >
                    {text.save}
                  </a>
                ) : null}
                <p id={hintId} className={styles.hint}>
                  {text.afterSave}
                </p>
              </>
            )}
          </div>
        </>
      )}
    </LabelledDialog>
  );
}
