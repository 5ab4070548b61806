import type { Image } from '@guquan/contract/share';
import { IMAGE_WIDTHS, imageUrl } from '@guquan/contract/share-paths';
import { deferImage, type DeferUntil } from '../../../lib/dom/deferred-images';
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
  /**
   * The first image of the page: loaded at once, first, and named for Element Timing (the share
   * pages' start-up script waits until it is on the screen: `pages/page-assets.ts`).
   */
  priority?: boolean;
  /**
   * Not asked for with the page: `picture` once the page's first picture is on the screen (the
   * first screen's other images: beside it, they would share a slow line with it), `settled`
   * once the page has loaded and gone quiet (the other images of a gallery, ready before a
   * swipe), `near` then only when it comes near the screen (far down a long page: a browser's own
   * lazy loading starts 1250–3000 px ahead, so a cabinet's whole grid would load with the page
   * and crowd a slow phone's first seconds). The class must give the element its size: a
   * deferred image is a box its <img> fills once it comes.
   */
  defer?: DeferUntil;
  /** Used when the image has no description of its own ('' for a decorative image). */
  fallbackAlt: string;
  className?: string;
  /** The <img> element, of an image that is not deferred. */
  imageRef?: (element: HTMLImageElement | null) => void;
}

/** Hands a deferred image's box to deferred-images.ts while it is on the page. */
function holdImage(box: HTMLSpanElement | null) {
  return box ? deferImage(box) : undefined;
}

/**
 * An image of a share: its own size (width/height from the contract, so nothing moves when it
 * arrives), the widths its slot needs, lazy unless it is the page's first (largest) image,
 * decoded off the main thread, and always an alt text.
 *
 * A deferred image is, until its moment, an empty box at the image's place (its class's size and
 * background) with its name for screen readers, its addresses held in data-src, data-srcset and
 * data-sizes: deferImage (lib/dom/deferred-images.ts) puts the <img> in it when its moment comes,
 * or the start-up script did before React. React renders the box's content as an empty
 * dangerouslySetInnerHTML: it never hydrates or diffs what is inside, and sets it again only for
 * another `__html`, so the server's box and the client's are the same whether a script has filled
 * it or not. suppressHydrationWarning only for development's check of that content against `''`.
 * No `imageRef` for it: its <img> is the DOM module's. Without scripts the <noscript> copy shows.
 */
export function ShareImage(props: ShareImageProps) {
  const { image, slot, defer, fallbackAlt, className } = props;
  if (image.missing) return <ImagePlaceholder {...props} />;
  if (!defer) return <ShareImageElement {...props} />;
  const alt = image.alt || fallbackAlt;
  return (
    <>
      <span
        ref={holdImage}
        className={className ? `${className} ${styles.pending}` : styles.pending}
        {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
        data-src={fallbackSrc(image)}
        data-srcset={slotSrcSet(image, slot)}
        data-sizes={slot.sizes}
        data-defer={defer}
        // No HTML at all: the empty string, so React leaves the box's content to deferred-images.ts.
        // eslint-disable-next-line no-restricted-syntax
        dangerouslySetInnerHTML={{ __html: '' }}
        suppressHydrationWarning
      />
      <noscript>
        <ShareImageElement {...props} />
      </noscript>
    </>
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
      {...(priority ? { fetchPriority: 'high' as const, elementtiming: 'first-picture' } : {})}
      draggable={false}
    />
  );
}
