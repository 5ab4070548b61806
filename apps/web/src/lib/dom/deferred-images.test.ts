import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as DeferredImages from './deferred-images';

type Module = typeof DeferredImages;
type Report = (entries: Pick<IntersectionObserverEntry, 'isIntersecting' | 'target'>[]) => void;

/** The module afresh for each test: its page-settled promise and its observer are the page's. */
async function freshModule(): Promise<Module> {
  vi.resetModules();
  return import('./deferred-images');
}

/** A deferred image's box, as share-image.tsx renders it, in the page. */
function deferredImage(defer: string, id = 'a'): HTMLElement {
  const box = document.createElement('span');
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', id);
  box.dataset.defer = defer;
  box.dataset.src = `/media/${id}/750.webp`;
  box.dataset.srcset = `/media/${id}/320.webp 320w, /media/${id}/750.webp 750w`;
  box.dataset.sizes = '33vw';
  document.body.append(box);
  return box;
}

/** The image deferImage put in `box`, if it has. */
function imageIn(box: Element): HTMLImageElement | null {
  return box.querySelector('img');
}

/** The `src` of the image in `box`; null while it has none. */
function srcIn(box: Element): string | null {
  return imageIn(box)?.getAttribute('src') ?? null;
}

/** Lets the page-settled promise (a timer where there is no requestIdleCallback) resolve. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 5));
}

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

describe('deferImage, settled', () => {
  it('puts the image in its box, with its addresses, once the page has settled', async () => {
    const { deferImage } = await freshModule();
    const box = deferredImage('settled');
    deferImage(box);
    expect(imageIn(box)).toBeNull();
    await settle();
    const img = imageIn(box);
    expect(box.children).toHaveLength(1);
    expect(img?.getAttribute('sizes')).toBe('33vw');
    expect(img?.getAttribute('srcset')).toBe('/media/a/320.webp 320w, /media/a/750.webp 750w');
    expect(img?.getAttribute('src')).toBe('/media/a/750.webp');
    // The box keeps the name: the image in it is not a second one.
    expect(img?.getAttribute('alt')).toBe('');
    expect(box.getAttribute('aria-label')).toBe('a');
    expect(img?.getAttribute('draggable')).toBe('false');
  });

  it('waits for the page’s load event while it is still loading', async () => {
    const { deferImage } = await freshModule();
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const box = deferredImage('settled');
    deferImage(box);
    await settle();
    expect(imageIn(box)).toBeNull();
    readyState.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    await settle();
    expect(srcIn(box)).toBe('/media/a/750.webp');
    readyState.mockRestore();
  });
});

describe('deferImage, picture', () => {
  it('puts the image in at once, the page still loading: a module runs once the picture is shown', async () => {
    const { deferImage } = await freshModule();
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const box = deferredImage('picture');
    deferImage(box);
    expect(srcIn(box)).toBe('/media/a/750.webp');
    expect(imageIn(box)?.getAttribute('srcset')).toBe(
      '/media/a/320.webp 320w, /media/a/750.webp 750w',
    );
    readyState.mockRestore();
  });

  it('leaves an image the page’s inline script put in as it is', async () => {
    const { deferImage } = await freshModule();
    const box = deferredImage('picture');
    const put = document.createElement('img');
    box.append(put);
    deferImage(box);
    await settle();
    expect([...box.children]).toEqual([put]);
  });
});

describe('deferImage, near', () => {
  let report: Report = () => undefined;
  const observed = new Set<Element>();
  const observers: { rootMargin?: string }[] = [];

  beforeEach(() => {
    observed.clear();
    observers.length = 0;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: Report, options?: IntersectionObserverInit) {
          report = callback;
          observers.push({ rootMargin: options?.rootMargin });
        }
        observe(element: Element) {
          observed.add(element);
        }
        unobserve(element: Element) {
          observed.delete(element);
        }
      },
    );
  });

  it('watches the image once the page has settled, and loads it when it comes near', async () => {
    const { deferImage } = await freshModule();
    const box = deferredImage('near');
    deferImage(box);
    expect(observed.size).toBe(0);
    await settle();
    expect(observed.has(box)).toBe(true);
    report([{ isIntersecting: false, target: box }]);
    expect(imageIn(box)).toBeNull();
    report([{ isIntersecting: true, target: box }]);
    expect(imageIn(box)?.getAttribute('srcset')).toBe(
      '/media/a/320.webp 320w, /media/a/750.webp 750w',
    );
    expect(srcIn(box)).toBe('/media/a/750.webp');
    expect(observed.size).toBe(0);
  });

  it('takes a moment it does not know for settled: the image comes, unwatched', async () => {
    const { deferImage } = await freshModule();
    const box = deferredImage('soon');
    deferImage(box);
    expect(imageIn(box)).toBeNull();
    await settle();
    expect(observed.size).toBe(0);
    expect(srcIn(box)).toBe('/media/a/750.webp');
  });

  it('watches every image with one observer, half a screen ahead', async () => {
    const { deferImage } = await freshModule();
    const images = ['a', 'b', 'c'].map((id) => deferredImage('near', id));
    for (const box of images) deferImage(box);
    await settle();
    expect(observers).toEqual([{ rootMargin: '50% 0px' }]);
    expect(observed.size).toBe(3);
    report([{ isIntersecting: true, target: images[1] as Element }]);
    expect(images.map((box) => imageIn(box) !== null)).toEqual([false, true, false]);
  });

  it('gives a box one image, however many times it is called for it', async () => {
    const { deferImage } = await freshModule();
    const box = deferredImage('near');
    // The start-up script's call, then React's.
    deferImage(box);
    const forget = deferImage(box);
    await settle();
    expect([...observed]).toEqual([box]);
    report([{ isIntersecting: true, target: box }]);
    report([{ isIntersecting: true, target: box }]);
    const img = imageIn(box);
    expect(box.children).toHaveLength(1);
    // As React's ref does when it attaches again (development's strict mode, say).
    forget();
    deferImage(box);
    await settle();
    report([{ isIntersecting: true, target: box }]);
    expect(box.children).toHaveLength(1);
    expect(imageIn(box)).toBe(img);

    const settledBox = deferredImage('settled', 'b');
    deferImage(settledBox);
    deferImage(settledBox);
    await settle();
    expect(settledBox.children).toHaveLength(1);
  });

  it('forgets an image that leaves the page before its moment', async () => {
    const { deferImage } = await freshModule();
    const waiting = deferredImage('near', 'a');
    const early = deferredImage('near', 'b');
    const gone = deferredImage('settled', 'c');
    const forgetWaiting = deferImage(waiting);
    const forgetEarly = deferImage(early);
    const forgetGone = deferImage(gone);
    forgetEarly();
    forgetGone();
    await settle();
    expect([...observed]).toEqual([waiting]);
    expect(imageIn(gone)).toBeNull();
    forgetWaiting();
    expect(observed.size).toBe(0);
    // Back in the page: it starts over.
    deferImage(waiting);
    await settle();
    expect(observed.has(waiting)).toBe(true);
  });
});

describe('startDeferredImages', () => {
  it('starts every deferred image under the root, and only those', async () => {
    const { startDeferredImages } = await freshModule();
    const root = document.createElement('main');
    const inside = deferredImage('settled', 'a');
    const plain = document.createElement('span');
    plain.dataset.src = '/media/p/750.webp';
    root.append(inside, plain);
    document.body.append(root);
    const outside = deferredImage('settled', 'b');
    startDeferredImages(root);
    startDeferredImages(root);
    await settle();
    expect(srcIn(inside)).toBe('/media/a/750.webp');
    expect(inside.children).toHaveLength(1);
    expect(imageIn(plain)).toBeNull();
    expect(imageIn(outside)).toBeNull();
  });
});
