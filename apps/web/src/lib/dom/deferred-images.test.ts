import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as DeferredImages from './deferred-images';

type Module = typeof DeferredImages;
type Report = (entries: Pick<IntersectionObserverEntry, 'isIntersecting' | 'target'>[]) => void;

/** The module afresh for each test: its page-settled promise and its observer are the page's. */
async function freshModule(): Promise<Module> {
  vi.resetModules();
  return import('./deferred-images');
}

function deferredImage(defer: string, id = 'a'): HTMLImageElement {
  const img = document.createElement('img');
  img.dataset.defer = defer;
  img.dataset.src = `/media/${id}/750.webp`;
  img.dataset.srcset = `/media/${id}/320.webp 320w, /media/${id}/750.webp 750w`;
  img.dataset.sizes = '33vw';
  img.alt = id;
  document.body.append(img);
  return img;
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
  it('gives the image its addresses once the page has settled', async () => {
    const { deferImage } = await freshModule();
    const img = deferredImage('settled');
    deferImage(img);
    expect(img.hasAttribute('src')).toBe(false);
    await settle();
    expect(img.getAttribute('sizes')).toBe('33vw');
    expect(img.getAttribute('srcset')).toBe('/media/a/320.webp 320w, /media/a/750.webp 750w');
    expect(img.getAttribute('src')).toBe('/media/a/750.webp');
  });

  it('waits for the page’s load event while it is still loading', async () => {
    const { deferImage } = await freshModule();
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const img = deferredImage('settled');
    deferImage(img);
    await settle();
    expect(img.hasAttribute('src')).toBe(false);
    readyState.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    await settle();
    expect(img.getAttribute('src')).toBe('/media/a/750.webp');
    readyState.mockRestore();
  });

  it('leaves alone an image with no moment of its own', async () => {
    const { deferImage } = await freshModule();
    const img = deferredImage('soon');
    deferImage(img);
    await settle();
    expect(img.hasAttribute('src')).toBe(false);
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
    const img = deferredImage('near');
    deferImage(img);
    expect(observed.size).toBe(0);
    await settle();
    expect(observed.has(img)).toBe(true);
    report([{ isIntersecting: false, target: img }]);
    expect(img.hasAttribute('src')).toBe(false);
    report([{ isIntersecting: true, target: img }]);
    expect(img.getAttribute('srcset')).toBe('/media/a/320.webp 320w, /media/a/750.webp 750w');
    expect(img.getAttribute('src')).toBe('/media/a/750.webp');
    expect(observed.size).toBe(0);
  });

  it('watches every image with one observer, half a screen ahead', async () => {
    const { deferImage } = await freshModule();
    const images = ['a', 'b', 'c'].map((id) => deferredImage('near', id));
    for (const img of images) deferImage(img);
    await settle();
    expect(observers).toEqual([{ rootMargin: '50% 0px' }]);
    expect(observed.size).toBe(3);
    report([{ isIntersecting: true, target: images[1] as Element }]);
    expect(images.map((img) => img.hasAttribute('src'))).toEqual([false, true, false]);
  });

  it('does nothing more when called again, or for an image already loaded', async () => {
    const { deferImage } = await freshModule();
    const img = deferredImage('near');
    const observe = vi.spyOn(IntersectionObserver.prototype, 'observe');
    deferImage(img);
    deferImage(img);
    await settle();
    expect(observe).toHaveBeenCalledTimes(1);
    report([{ isIntersecting: true, target: img }]);
    const srcset = vi.spyOn(img, 'srcset', 'set');
    deferImage(img);
    await settle();
    expect(observe).toHaveBeenCalledTimes(1);
    expect(srcset).not.toHaveBeenCalled();

    const loaded = deferredImage('near', 'b');
    loaded.src = '/media/b/750.webp';
    deferImage(loaded);
    await settle();
    expect(observed.has(loaded)).toBe(false);
  });

  it('forgets an image that leaves the page before its moment', async () => {
    const { deferImage, stopDeferring } = await freshModule();
    const waiting = deferredImage('near', 'a');
    const early = deferredImage('near', 'b');
    deferImage(waiting);
    deferImage(early);
    stopDeferring(early);
    await settle();
    expect([...observed]).toEqual([waiting]);
    stopDeferring(waiting);
    expect(observed.size).toBe(0);
    report([{ isIntersecting: true, target: waiting }]);
    expect(waiting.hasAttribute('src')).toBe(false);
    // Back in the page: it starts over.
    deferImage(waiting);
    await settle();
    expect(observed.has(waiting)).toBe(true);
  });
});

describe('deferImage, near, in a browser without IntersectionObserver', () => {
  it('loads once the page has settled', async () => {
    const { deferImage } = await freshModule();
    expect(typeof IntersectionObserver).toBe('undefined');
    const img = deferredImage('near');
    deferImage(img);
    await settle();
    expect(img.getAttribute('src')).toBe('/media/a/750.webp');
  });
});

describe('startDeferredImages', () => {
  it('starts every deferred image under the root, and only those', async () => {
    const { startDeferredImages } = await freshModule();
    const root = document.createElement('main');
    const inside = deferredImage('settled', 'a');
    const plain = document.createElement('img');
    plain.dataset.src = '/media/p/750.webp';
    root.append(inside, plain);
    document.body.append(root);
    const outside = deferredImage('settled', 'b');
    startDeferredImages(root);
    startDeferredImages(root);
    await settle();
    expect(inside.getAttribute('src')).toBe('/media/a/750.webp');
    expect(plain.hasAttribute('src')).toBe(false);
    expect(outside.hasAttribute('src')).toBe(false);
  });
});
