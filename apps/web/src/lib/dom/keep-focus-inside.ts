import type { KeyboardEvent } from 'react';

/** What a modal dialog's Tab order goes through, unless the dialog says otherwise. */
export const DIALOG_FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled])';

/**
 * The keydown handler of a modal dialog's container: Tab from the last control goes to the
 * first, Shift+Tab from the first (or the container) to the last, so focus never leaves it.
 */
export function keepFocusInside(
  event: KeyboardEvent<HTMLElement>,
  focusableSelector: string = DIALOG_FOCUSABLE,
): void {
  if (event.key !== 'Tab') return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(focusableSelector)];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
