import type { ReactNode } from 'react';
import styles from './status-view.module.css';

/** A full-page message: an emblem, a heading, a line of explanation and an action. */
export function StatusView({
  emblem,
  heading,
  body,
  action,
}: {
  emblem: string;
  heading: string;
  body: string;
  action?: ReactNode;
}) {
  return (
    <section className={styles.view} aria-labelledby="status-heading">
      <p className={styles.emblem} aria-hidden="true">
        {emblem}
      </p>
      <h1 id="status-heading" className={styles.heading}>
        {heading}
      </h1>
      <p className={styles.body}>{body}</p>
      {action ? <div className={styles.action}>{action}</div> : null}
    </section>
  );
}
