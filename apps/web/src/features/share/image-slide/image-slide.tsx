import type { ReactNode } from 'react';
import { fill, useShareTexts } from '../share-texts';

/**
 * One image of a carousel, the gallery's or the full-screen viewer's: a group that screen readers
 * announce as "image n of total" (WAI-ARIA's carousel pattern). `hidden` keeps the slides not on
 * screen out of the accessibility tree.
 */
export function ImageSlide({
  position,
  total,
  className,
  hidden = false,
  children,
}: {
  position: number;
  total: number;
  className: string | undefined;
  hidden?: boolean;
  children: ReactNode;
}) {
  const text = useShareTexts();
  return (
    <div
      className={className}
      role="group"
      aria-roledescription="slide"
      aria-label={fill(text.slide, { n: position + 1, total })}
      aria-hidden={hidden ? true : undefined}
    >
      {children}
    </div>
  );
}
