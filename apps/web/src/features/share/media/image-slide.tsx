import type { ReactNode } from 'react';
import type { Image } from '@guquan/contract/share';
import { fill, useShareTexts } from '../texts/share-texts';

/**
 * The slides of a carousel of images, the gallery's and the full-screen viewer's: each a group
 * that screen readers announce as "image n of total" (WAI-ARIA's carousel pattern), holding what
 * `children` makes of its image. With `current`, the slides not on screen stay out of the
 * accessibility tree.
 */
export function ImageSlides({
  images,
  className,
  current,
  children,
}: {
  images: readonly Image[];
  className: string | undefined;
  current?: number;
  children: (image: Image, position: number) => ReactNode;
}) {
  const text = useShareTexts();
  const total = images.length;
  return images.map((image, position) => (
    <div
      key={`${image.id}-${position}`}
      className={className}
      role="group"
      aria-roledescription="slide"
      aria-label={fill(text.slide, { n: position + 1, total })}
      aria-hidden={current === undefined || position === current ? undefined : true}
    >
      {children(image, position)}
    </div>
  ));
}
