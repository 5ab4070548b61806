import type { Image } from '@guquan/contract/share';
import { IMAGE_WIDTHS, imageUrl } from '@guquan/contract/share-paths';
import { useCallback } from 'react';
import { deferImage, stopDeferring, type DeferUntil } from '../../../lib/dom/deferred-images';
import { slotSrcSet, type ImageSlot } from './image-slots';
import styles from './share-image.module.css';

/** The `src` for browsers without srcset: the width previews use, or the original's if smaller. */
const FALLBACK_WIDTH = 750;

function fallbackSrc(image: Image): string {
  const wanted = Math.min(image.width, FALLBACK_WIDTH);
  return imageUrl(image.id, IMAGE_WIDTHS.find((width) => width >= wanted) ?? FALLBACK_WIDTH);
}

interface ShareImageProps {
  image: Image;
  slot: ImageSlot;
  /** The first image of the page: loaded at once, first. */
  priority?: boolean;
  /**
   * Not asked for with the page: `settled` once the page has loaded and gone quiet (the other
   * images of a gallery, ready before a swipe), `near` then only when it comes near the screen (far
   * down a long page: a browser's own lazy loading starts 1250–3000 px ahead, so a cabinet's whole
   * grid would load with the page and crowd a slow phone's first seconds). The element's class
   * must give it its size (it has none of its own until then).
   */
  defer?: DeferUntil;
  /** Used when the image has no description of its own ('' for a decorative image). */
  fallbackAlt: string;
  className?: string;
  imageRef?: (element: HTMLImageElement | null) => void;
}

/**
 * An image of a share: its own size (width/height from the contract, so nothing moves when it
 * arrives), the widths its slot needs, lazy unless it is the page's first (largest) image,
 * decoded off the main thread, and always an alt text.
 */
export function ShareImage(props: ShareImageProps) {
  if (props.image.missing) return <ImagePlaceholder {...props} />;
  if (!props.defer) return <ShareImageElement {...props} />;
  return (
    <>
      <DeferredImage {...props} />
      <noscript>
        <ShareImageElement {...props} />
      </noscript>
    </>
  );
}

/**
 * A deferred image: the <img> itself with its size, class and alt text (so it holds its place,
 * and its name for screen readers), its addresses held back in data-src, data-srcset and
 * data-sizes until deferImage (lib/dom/deferred-images.ts) gives them when its moment comes. React
 * never renders src, srcset or sizes here, so the server's element and the client's are the same
 * whether a script has filled them in or not, and hydration never mismatches.
 */
function DeferredImage({ image, slot, defer, fallbackAlt, className, imageRef }: ShareImageProps) {
  const ref = useCallback(
    (element: HTMLImageElement | null) => {
      imageRef?.(element);
      if (!element) return;
      deferImage(element);
      return () => {
        stopDeferring(element);
        imageRef?.(null);
      };
    },
    [imageRef],
  );
  return (
    <img
      ref={ref}
      className={className ? `${className} ${styles.pending}` : styles.pending}
      data-src={fallbackSrc(image)}
      data-srcset={slotSrcSet(image, slot)}
      data-sizes={slot.sizes}
      data-defer={defer}
      width={image.width}
      height={image.height}
      alt={image.alt || fallbackAlt}
      loading="lazy"
      decoding="async"
      draggable={false}
      // The start-up script may have given it src, srcset and sizes before React hydrates it.
      suppressHydrationWarning
    />
  );
}

/**
 * An image whose file the server does not have yet (still coming from the platform's media
 * hosts): the placeholder at the image's own shape, never a broken image. An SVG of the image's
 * size with its viewBox sizes like the <img> would (its class's width, its own proportions),
 * without an inline style the page's policy would refuse. The next read of the page after the
 * image arrives shows the image.
 */
function ImagePlaceholder({ image, fallbackAlt, className }: ShareImageProps) {
  const alt = image.alt || fallbackAlt;
  return (
    <svg
      className={className ? `${className} ${styles.placeholder}` : styles.placeholder}
      viewBox={`0 0 ${image.width} ${image.height}`}
      width={image.width}
      height={image.height}
      data-placeholder=""
      {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
    />
  );
}

function ShareImageElement({
  image,
  slot,
  priority = false,
  fallbackAlt,
  className,
  imageRef,
}: ShareImageProps) {
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
