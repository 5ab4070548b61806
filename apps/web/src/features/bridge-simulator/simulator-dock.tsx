import { useId, useSyncExternalStore, type KeyboardEvent, type ReactNode } from 'react';
import type { SimulatorStore } from './simulator-state';
import styles from './simulator-panel.module.css';

export interface SimulatorDockProps {
  store: SimulatorStore;
  /** Dismissing a notice: the app's way (it may resume the page), or just the store's. */
  onDismissNotice: (id: number) => void;
  /** Top right (in-app pages), or lower left: above a share page's bottom bar, below its top bar. */
  placement?: 'top' | 'bottom';
  /** The panel's controls. */
  children: ReactNode;
}

/**
 * The simulator's frame on every page: a toggle in a corner, the notices of what the app would
 * do, and the panel the toggle shows (Escape or Close hides it).
 */
export function SimulatorDock({
  store,
  onDismissNotice,
  placement = 'top',
  children,
}: SimulatorDockProps) {
  const { open, notices } = useSyncExternalStore(store.subscribe, store.get);
  const id = useId();
  const ids = { heading: `${id}-heading`, panel: `${id}-panel` };
  const close = () => {
    store.update({ open: false });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') close();
  };

  return (
    <aside
      className={placement === 'bottom' ? `${styles.dock} ${styles.dockBottom}` : styles.dock}
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

      <div id={ids.panel} className={styles.panel} hidden={!open} onKeyDown={onKeyDown}>
        {children}
        <button type="button" className={styles.button} onClick={close}>
          Close
        </button>
      </div>
    </aside>
  );
}
