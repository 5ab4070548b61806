import type { Image } from '@guquan/contract/share';
import { IMAGE_WIDTHS, imageUrl } from '@guquan/contract/share-paths';
import { slotSrcSet, type ImageSlot } from './image-slots';

/** The `src` for browsers without srcset: the width previews use, or the original's if smaller. */
const FALLBACK_WIDTH = 750;

function fallbackSrc(image: Image): string {
  const wanted = Math.min(image.width, FALLBACK_WIDTH);
  return imageUrl(image.id, IMAGE_WIDTHS.find((width) => width >= wanted) ?? FALLBACK_WIDTH);
}

/**
 * An image of a share: its own size (width/height from the contract, so nothing moves when it
 * arrives), the widths its slot needs, lazy unless it is the page's first
 * (largest) image, decoded off the main thread, and always an alt text.
 */
export function ShareImage({
  image,
  slot,
  priority = false,
  fallbackAlt,
  className,
  imageRef,
}: {
  image: Image;
  slot: ImageSlot;
  /** The first image of the page: loaded at once, first. */
  priority?: boolean;
  /** Used when the image has no description of its own ('' for a decorative image). */
  fallbackAlt: string;
  className?: string;
  imageRef?: (element: HTMLImageElement | null) => void;
}) {
  return (
    <img
      ref={imageRef}
      className={className}
      src={fallbackSrc(image)}
      srcSet={slotSrcSet(image, slot)}
      sizes={slot.sizes}
      width={image.width}
      height={image.height}
      alt={image.alt || fallbackAlt}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      {...(priority ? { fetchPriority: 'high' as const } : {})}
      draggable={false}
    />
  );
}
