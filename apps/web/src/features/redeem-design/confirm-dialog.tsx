import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import buttons from '../../components/button.module.css';
import { keepFocusInside } from '../../lib/dom/keep-focus-inside';
import styles from './redeem-design-page.module.css';

/**
 * A modal confirmation. The page behind it is made inert by its caller; focus starts on
 * "cancel" (the safe choice), stays inside, and Escape cancels.
 */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  body: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    cancelRef.current?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else {
      keepFocusInside(event);
    }
  };

  return (
    <div className={styles.backdrop}>
      <div
        className={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className={styles.dialogTitle}>
          {title}
        </h2>
        <p id={bodyId} className={styles.dialogBody}>
          {body}
        </p>
        <div className={styles.dialogActions}>
          <button ref={cancelRef} type="button" className={styles.secondary} onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="button" className={buttons.primary} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
