import {
  useEffectEvent,
  useLayoutEffect,
  useRef,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { inertOutside } from '../../lib/dom/inert-outside';
import { DIALOG_FOCUSABLE, keepFocusInside } from '../../lib/dom/keep-focus-inside';
import styles from './modal-dialog.module.css';

export interface ModalDialogProps {
  /** `alertdialog` for a confirmation of something that cannot be undone. */
  role?: 'dialog' | 'alertdialog';
  labelledBy: string;
  describedBy?: string;
  /** Escape (or the browser's own close request): the caller unmounts the dialog. */
  onClose: () => void;
  /** What has the focus first (the safe choice); the dialog itself when not given. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where the focus goes when the dialog closes; where it was before when not given. */
  returnFocus?: RefObject<HTMLElement | null>;
  /** What Tab and Shift+Tab go through, first to last and round again. */
  focusable?: string;
  /** Draws the full-screen dialog: a dimmed backdrop with a card, a black viewer… */
  className?: string;
  children: ReactNode;
}

/** Whether this browser has the modal `<dialog>` (jsdom, and browsers before 2022, do not). */
function canShowModal(dialog: HTMLDialogElement): boolean {
  return typeof dialog.showModal === 'function';
}

/**
 * The one modal dialog of the site, on the native `<dialog>`: open while it is mounted. The rest
 * of the page is inert, the page does not scroll, focus starts inside, stays inside, and goes back
 * to where it was when the dialog closes; Escape asks the caller to close it. Where `showModal` is
 * missing, the same `<dialog>` is shown with `open`, and the code here does what the browser
 * would. It renders closed on the server (and in the hydrating HTML), so there is nothing to
 * reconcile: the browser opens it in an effect.
 */
export function ModalDialog({
  role = 'dialog',
  labelledBy,
  describedBy,
  onClose,
  initialFocus,
  returnFocus,
  focusable = DIALOG_FOCUSABLE,
  className,
  children,
}: ModalDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  /** Once asked, not again: Escape and the browser's close may both report one request. */
  const closeAsked = useRef(false);
  const close = useEffectEvent(() => {
    if (closeAsked.current) return;
    closeAsked.current = true;
    onClose();
  });
  const focusFirst = useEffectEvent(() => {
    (initialFocus?.current ?? dialogRef.current)?.focus();
  });

  const focusBack = useEffectEvent((opener: HTMLElement | null) => {
    const target = returnFocus?.current ?? opener;
    if (target?.isConnected) target.focus();
  });

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const native = canShowModal(dialog);
    if (native) dialog.showModal();
    else dialog.setAttribute('open', '');
    const restoreOutside = inertOutside(dialog);
    const root = document.documentElement;
    const lock = styles.scrollLock;
    if (lock) root.classList.add(lock);
    focusFirst();
    // The browser's close request (Escape, Android's back gesture): the caller decides.
    const onCancel = (event: Event) => {
      event.preventDefault();
      close();
    };
    // Closed by the browser although the request was refused (a second Escape in a row).
    const onBrowserClose = () => {
      close();
    };
    // On the document: Escape closes whatever has the focus (and before a native close request).
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      close();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onBrowserClose);
    document.addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('keydown', onEscape);
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onBrowserClose);
      if (lock) root.classList.remove(lock);
      restoreOutside();
      if (native) dialog.close();
      else dialog.removeAttribute('open');
      focusBack(opener);
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      // Explicit, so it is the same with and without showModal (and for tools that look for it).
      role={role}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      tabIndex={-1}
      className={className ? `${styles.dialog} ${className}` : styles.dialog}
      onKeyDown={(event: KeyboardEvent<HTMLDialogElement>) => {
        keepFocusInside(event, focusable);
      }}
    >
      {children}
    </dialog>
  );
}
