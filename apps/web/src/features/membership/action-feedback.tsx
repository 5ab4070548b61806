import { useEffect, useRef } from 'react';
import styles from './membership-page.module.css';

/** What became of a tap: shown (and announced) right below the button that was tapped. */
export interface Feedback {
  kind: 'busy' | 'done' | 'warning' | 'error';
  text: string;
}

/**
 * A live region that stays in the page, so a screen reader announces what is put in it; what it
 * says is brought into view, since at 320 px the line below a button can be below the fold.
 */
export function ActionFeedback({
  feedback,
  id,
}: {
  feedback: Feedback | undefined;
  /** For the button it explains (`aria-describedby`). */
  id?: string;
}) {
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    // Optional: not every web view (nor jsdom) has it; the line is then simply not scrolled to.
    const element: { scrollIntoView?: (options: ScrollIntoViewOptions) => void } | null =
      line.current;
    if (feedback) element?.scrollIntoView?.({ block: 'nearest' });
  }, [feedback]);
  return (
    <p
      ref={line}
      id={id}
      className={styles.notice}
      data-kind={feedback?.kind ?? 'idle'}
      role="status"
      aria-live="polite"
    >
      {feedback?.text ?? ''}
    </p>
  );
}
