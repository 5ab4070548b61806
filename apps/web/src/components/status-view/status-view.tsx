import type { ReactNode } from 'react';
import styles from './status-view.module.css';

/**
 * A full-page message: the words first (a heading and a line of explanation), an action, and at
 * most an HTTP status in small print below, for whoever reports it. Never a big code or symbol
 * in place of the words.
 */
export function StatusView({
  heading,
  body,
  action,
  code,
}: {
  heading: string;
  body: string;
  action?: ReactNode;
  /** e.g. "404": shown small, after the rest. */
  code?: string;
}) {
  return (
    <section className={styles.view} aria-labelledby="status-heading">
      <h1 id="status-heading" className={styles.heading}>
        {heading}
      </h1>
      <p className={styles.body}>{body}</p>
      {action ? <div className={styles.action}>{action}</div> : null}
      {code ? <p className={styles.code}>{code}</p> : null}
    </section>
  );
}
