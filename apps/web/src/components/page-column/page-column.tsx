import type { ReactNode } from 'react';
import styles from './page-column.module.css';

/**
 * The phone-width column every share, in-app and legal page sits in (centred on wide screens).
 * `wide`: from 1024 px the column widens for a page that lays itself out in two columns there.
 */
export function PageColumn({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <main className={wide ? `${styles.column} ${styles.wide}` : styles.column}>{children}</main>
  );
}
