/**
 * Deferred images: an empty holder (a `<span>` the page renders at the image's place, with its
 * size and its name for screen readers) carrying the image's addresses as `data-src`,
 * `data-srcset` and `data-sizes` and its moment as `data-defer` gets its `<img>`, made here and
 * put inside it, when that moment comes. Plain DOM, no React: the share pages' start-up script can
 * start them before the app hydrates (startDeferredImages), and React owns neither the `<img>` nor
 * its addresses (it renders the holder's content as an empty `dangerouslySetInnerHTML`, whose
 * children it never hydrates), so hydration finds the same holder whether its image is in yet or
 * not.
 */

/**
 * What a deferred image waits for: the page's first picture to be on the screen (`picture`: the
 * share pages' start-up script puts it in then, `pages/page-assets.ts` on the server, before any
 * module runs), the page to have loaded and gone quiet (`settled`), or that and then to come near
 * the screen (`near`).
 */
export type DeferUntil = 'picture' | 'settled' | 'near';

/**
 * How far ahead of the screen "near" starts: half a screen above and below, so a visitor who
 * scrolls at a reading pace finds the images there.
 */
const NEAR_VIEWPORT_MARGIN = '50% 0px';

let observer: IntersectionObserver | undefined;

let settled: Promise<void> | undefined;

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

/** One observer for every holder on the page (one per holder would cost a phone more). */
function sharedObserver(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const { isIntersecting, target } of entries) {
        if (!isIntersecting) continue;
        observer?.unobserve(target);
        load(target as HTMLElement);
      }
    },
    { rootMargin: NEAR_VIEWPORT_MARGIN },
  );
  return observer;
}

/**
 * Puts the image in its holder, with the addresses the holder was keeping, unless it has it
 * already (deferImage called twice: by the start-up script, then by React; or the page's inline
 * script put it in, which makes it the same way: keep the two alike). The holder keeps the
 * name (`role="img"` and `aria-label`, or `aria-hidden` for a decorative image): the `<img>` is
 * `alt=""`, so a screen reader finds one image, not two. share-image.module.css has it fill the
 * holder, the holder's `object-fit` and corners inherited. Not lazy: its moment has come.
 */
function load(holder: HTMLElement): void {
  if (holder.firstChild) return;
  const { sizes = '', srcset = '', src = '' } = holder.dataset;
  holder.append(
    Object.assign(document.createElement('img'), {
      alt: '',
      decoding: 'async',
      draggable: false,
      // sizes and srcset before src, so the browser picks from the set at once.
      sizes,
      srcset,
      src,
    }),
  );
}

/**
 * Loads a deferred image when its holder's moment (`data-defer`) comes: `picture` at once (a
 * module runs only once the picture is on the screen, which is when the inline script has put
 * the image in already; a page the router brings does not wait for its picture), `settled` once
 * the page has loaded and gone quiet (a gallery's other images, ready before a swipe), `near`
 * then only when it comes near the screen (far down a long page: a browser's own lazy loading
 * starts 1250–3000 px ahead, so a cabinet's whole grid would load with the page and crowd a slow
 * phone's first seconds); any other moment is `settled`. (Every browser that runs this code has
 * IntersectionObserver: the build's syntax, `??=` and `?.`, came years after it.) A holder that
 * has its image already gets no second one. Returns what forgets the holder (React's ref cleanup:
 * it has left the page): its image does not come, unless deferImage is called for it again.
 */
export function deferImage(holder: HTMLElement): () => void {
  if (holder.dataset.defer === 'picture') {
    load(holder);
    return () => undefined;
  }
  let wanted = true;
  void pageSettled().then(() => {
    if (!wanted) return;
    if (holder.dataset.defer !== 'near') load(holder);
    else sharedObserver().observe(holder);
  });
  return () => {
    wanted = false;
    observer?.unobserve(holder);
  };
}

/** Starts every deferred image under `root` (the page's start-up script, before React). */
export function startDeferredImages(root: ParentNode): void {
  for (const holder of root.querySelectorAll<HTMLElement>('[data-defer]')) deferImage(holder);
}
