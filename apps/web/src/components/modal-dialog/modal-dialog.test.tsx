import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ModalDialog } from './modal-dialog';

/** A page with content, a button that opens the dialog, and the dialog. */
function Page({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  return (
    <>
      <header>
        <a href="#top">top</a>
      </header>
      <main>
        <p>content</p>
        <button
          type="button"
          onClick={() => {
            setOpen(true);
          }}
        >
          open
        </button>
        {open ? (
          <ModalDialog
            labelledBy="title"
            initialFocus={first}
            onClose={() => {
              onClose?.();
              setOpen(false);
            }}
          >
            <h2 id="title">Question</h2>
            <button ref={first} type="button">
              first
            </button>
            <button type="button">last</button>
          </ModalDialog>
        ) : null}
      </main>
    </>
  );
}

function open(): HTMLElement {
  render(<Page />);
  const opener = screen.getByRole('button', { name: 'open' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

/** What the page behind holds that is not inert. */
function reachableBehind(): string[] {
  const dialog = document.querySelector('dialog');
  return [...document.body.querySelectorAll('p, a, button, h2')]
    .filter((element) => !dialog?.contains(element) && !element.closest('[inert]'))
    .map((element) => element.textContent);
}

const prototype = HTMLDialogElement.prototype as Partial<HTMLDialogElement>;
const original = { showModal: prototype.showModal, close: prototype.close };

function behaves(label: string) {
  it(`${label}: makes the page behind inert while open, and only then`, () => {
    render(<Page />);
    expect(reachableBehind()).toEqual(['top', 'content', 'open']);
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    const dialog = screen.getByRole('dialog', { name: 'Question' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(reachableBehind()).toEqual([]);
    expect(document.documentElement.classList.length).toBe(1); // the scroll lock
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(reachableBehind()).toEqual(['top', 'content', 'open']);
    expect(document.documentElement.classList.length).toBe(0);
  });

  it(`${label}: focus starts inside, stays inside, and goes back`, () => {
    const opener = open();
    const first = screen.getByRole('button', { name: 'first' });
    const last = screen.getByRole('button', { name: 'last' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(document.activeElement ?? document, { key: 'Escape' });
    expect(document.activeElement).toBe(opener);
  });

  it(`${label}: asks once to close, however many close requests arrive`, () => {
    const onClose = vi.fn();
    render(<Page onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    const dialog = screen.getByRole('dialog');
    const cancel = new Event('cancel', { cancelable: true });
    dialog.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
}

afterEach(() => {
  cleanup();
  document.documentElement.className = '';
});

describe('ModalDialog without showModal (jsdom, older browsers)', () => {
  beforeEach(() => {
    delete prototype.showModal;
    delete prototype.close;
  });
  afterEach(() => {
    Object.assign(prototype, original);
  });

  it('shows the dialog with the open attribute', () => {
    open();
    expect(screen.getByRole('dialog').hasAttribute('open')).toBe(true);
  });

  behaves('fallback');
});

describe('ModalDialog with showModal', () => {
  const showModal = vi.fn(function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  });
  const close = vi.fn(function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  });
  beforeEach(() => {
    Object.assign(prototype, { showModal, close });
    showModal.mockClear();
    close.mockClear();
  });
  afterEach(() => {
    Object.assign(prototype, original);
  });

  it('opens it as the browser’s modal dialog, and closes it', () => {
    open();
    expect(showModal).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(close).toHaveBeenCalledTimes(1);
  });

  behaves('native');
});
