/**
 * Deferred images: an `<img>` rendered without `src`, `srcset` or `sizes`, carrying them as
 * `data-src`, `data-srcset` and `data-sizes` and its moment as `data-defer`, gets them when that
 * moment comes. Plain DOM, no React: the share pages' start-up script can start them before the
 * app hydrates (startDeferredImages), and React never owns the attributes it sets, so hydration
 * finds the same element whether they are set yet or not.
 */

/**
 * What a deferred image waits for: the page to have loaded and gone quiet (`settled`), or that
 * and then to come near the screen (`near`).
 */
export type DeferUntil = 'settled' | 'near';

/**
 * How far ahead of the screen "near" starts: half a screen above and below, so a visitor who
 * scrolls at a reading pace finds the images there.
 */
const NEAR_VIEWPORT_MARGIN = '50% 0px';

type OnNear = () => void;
const waiting = new Map<Element, OnNear>();
let observer: IntersectionObserver | undefined;

let settled: Promise<void> | undefined;

/** Each image deferImage has taken on, to its wait: a second call for it does nothing more. */
const taken = new WeakMap<HTMLImageElement, object>();

/**
 * Resolves once the page has loaded and the browser has a quiet moment: until then a slow phone's
 * network and processor belong to what is on screen and to the app's own code.
 */
function pageSettled(): Promise<void> {
  settled ??= new Promise((resolve) => {
    const whenIdle = () => {
      if (typeof requestIdleCallback === 'function') {
        requestIdleCallback(
          () => {
            resolve();
          },
          { timeout: 1000 },
        );
      } else {
        setTimeout(resolve, 0);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  });
  return settled;
}

/** One observer for every image on the page (one per image would cost a phone more). */
function sharedObserver(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const onNear = waiting.get(entry.target);
        waiting.delete(entry.target);
        observer?.unobserve(entry.target);
        onNear?.();
      }
    },
    { rootMargin: NEAR_VIEWPORT_MARGIN },
  );
  return observer;
}

/**
 * Gives the image the addresses it was holding back. Its `src` is what marks it loaded (the
 * placeholder's style is `img[data-defer]:not([src])`).
 */
function load(img: HTMLImageElement): void {
  const { srcset, sizes, src } = img.dataset;
  // sizes and srcset before src, so the browser picks from the set at once.
  if (sizes) img.sizes = sizes;
  if (srcset) img.srcset = srcset;
  if (src) img.src = src;
}

/**
 * Loads a deferred image when its moment (`data-defer`) comes: `settled` once the page has loaded
 * and gone quiet (a gallery's other images, ready before a swipe), `near` then only when it comes
 * near the screen (far down a long page: a browser's own lazy loading starts 1250–3000 px ahead,
 * so a cabinet's whole grid would load with the page and crowd a slow phone's first seconds). A
 * browser without IntersectionObserver treats `near` as `settled`. Calling it again for the same
 * image, or for one already loaded (it has a `src`), does nothing more.
 */
export function deferImage(img: HTMLImageElement): void {
  const until = img.dataset.defer;
  if (taken.has(img) || img.hasAttribute('src') || (until !== 'settled' && until !== 'near'))
    return;
  const wait = {};
  taken.set(img, wait);
  void pageSettled().then(() => {
    if (taken.get(img) !== wait) return;
    if (until === 'settled' || typeof IntersectionObserver !== 'function') {
      load(img);
      return;
    }
    waiting.set(img, () => {
      load(img);
    });
    sharedObserver().observe(img);
  });
}

/**
 * Forgets an image deferImage was waiting for (it has left the page): it is no longer watched, and
 * a later deferImage for it starts over.
 */
export function stopDeferring(img: HTMLImageElement): void {
  taken.delete(img);
  waiting.delete(img);
  observer?.unobserve(img);
}

/** Starts every deferred image under `root` (the page's start-up script, before React). */
export function startDeferredImages(root: ParentNode): void {
  for (const img of root.querySelectorAll<HTMLImageElement>('img[data-defer]')) deferImage(img);
}
