import type { ReactNode } from 'react';
import styles from './page-column.module.css';

/** The phone-width column every share, in-app and legal page sits in (centred on wide screens). */
export function PageColumn({ children }: { children: ReactNode }) {
  return <main className={styles.column}>{children}</main>;
}
