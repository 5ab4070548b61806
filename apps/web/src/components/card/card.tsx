import type { ComponentProps } from 'react';
import styles from './card.module.css';

/** A white card with a hairline border: one section of a page (label it with aria-labelledby). */
export function Card({ className, ...props }: ComponentProps<'section'>) {
  return <section {...props} className={className ? `${styles.card} ${className}` : styles.card} />;
}
