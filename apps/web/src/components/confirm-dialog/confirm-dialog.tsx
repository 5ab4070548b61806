import { useId, useRef, type RefObject } from 'react';
import buttons from '../button.module.css';
import { ModalDialog } from '../modal-dialog/modal-dialog';
import styles from './confirm-dialog.module.css';

export interface ConfirmDialogProps {
  title: string;
  body: string;
  confirmLabel: string;
  cancelLabel: string;
  /** `danger` for what cannot be undone: the dialog is then an alertdialog. */
  tone?: 'primary' | 'danger';
  /** The confirm button is disabled while the answer is on its way. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Where the focus goes back to: the button that asked the question, typically. */
  returnFocus?: RefObject<HTMLElement | null>;
}

/**
 * A modal question with two answers. Focus starts on the cancel button (the safe choice), stays
 * inside, and Escape cancels.
 */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  cancelLabel,
  tone = 'primary',
  busy = false,
  onConfirm,
  onCancel,
  returnFocus,
}: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      role={tone === 'danger' ? 'alertdialog' : 'dialog'}
      labelledBy={titleId}
      describedBy={bodyId}
      initialFocus={cancelRef}
      returnFocus={returnFocus}
      onClose={onCancel}
      className={styles.backdrop}
    >
      <div className={styles.card}>
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        <p id={bodyId} className={styles.body}>
          {body}
        </p>
        <div className={styles.actions}>
          <button ref={cancelRef} type="button" className={buttons.secondary} onClick={onCancel}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={tone === 'danger' ? buttons.danger : buttons.primary}
            disabled={busy}
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
