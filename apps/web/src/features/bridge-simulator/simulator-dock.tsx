import { useEffect, useId, useSyncExternalStore, type ReactNode } from 'react';
import type { SimulatorStore } from './simulator-state';
import styles from './simulator-panel.module.css';

/** On <html> while the band is there (simulator-panel.module.css). */
const BAND_CLASS = 'simulator-band';

export interface SimulatorDockProps {
  store: SimulatorStore;
  /** Dismissing a notice: the app's way (it may resume the page), or just the store's. */
  onDismissNotice: (id: number) => void;
  /** The panel's controls. */
  children: ReactNode;
}

/**
 * The simulator's frame on every page: a band at the foot of the screen with its toggle, the
 * notices of what the app would do, and the panel the toggle shows (Escape or Close hides it).
 * While it is mounted, <html> carries `simulator-band`: the page makes room for the band
 * (simulator-panel.module.css), so that it covers nothing.
 */
export function SimulatorDock({ store, onDismissNotice, children }: SimulatorDockProps) {
  const { open, notices } = useSyncExternalStore(store.subscribe, store.get);
  const id = useId();
  const ids = { heading: `${id}-heading`, panel: `${id}-panel` };
  useEffect(() => {
    document.documentElement.classList.add(BAND_CLASS);
    return () => {
      document.documentElement.classList.remove(BAND_CLASS);
    };
  }, []);
  const close = () => {
    store.update({ open: false });
  };
  // Escape closes the open panel wherever the focus is, as the panel says (issue 39), but for
  // the page's own dialog (a sheet, the poster): that Escape is the dialog's.
  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('#root [role="dialog"], #root [role="alertdialog"], #root dialog'))
        return;
      store.update({ open: false });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, store]);

  return (
    <aside
      className={styles.dock}
      aria-labelledby={ids.heading}
      // The simulator speaks English on every page: read and drawn as English on a Chinese one.
      lang="en"
    >
      <h2 id={ids.heading} className="visually-hidden">
        App simulator
      </h2>
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={ids.panel}
        onClick={() => {
          store.update({ open: !open });
        }}
      >
        {open ? 'Hide app simulator' : 'App simulator'}
      </button>

      <div className={styles.above}>
        <div role="status" className={styles.notices}>
          {notices.map((notice) => (
            <p key={notice.id} className={styles.notice}>
              <span>{notice.text}</span>
              <button
                type="button"
                className={styles.button}
                onClick={() => {
                  onDismissNotice(notice.id);
                }}
              >
                {notice.resumesPage ? 'Back to the page' : 'OK'}
              </button>
            </p>
          ))}
        </div>

        <div id={ids.panel} className={styles.panel} hidden={!open}>
          {children}
          <button type="button" className={styles.button} onClick={close}>
            Close
          </button>
        </div>
      </div>
    </aside>
  );
}
