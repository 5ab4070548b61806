import { useCallback, useEffect, useState } from 'react';

/**
 * How far ahead of the screen "near" starts: half a screen above and below, so a visitor who
 * scrolls at a reading pace finds the images there.
 */
export const NEAR_VIEWPORT_MARGIN = '50% 0px';

type OnNear = () => void;
const waiting = new Map<Element, OnNear>();
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

/** One observer for every element on the page (one per element would cost a phone more). */
function sharedObserver(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const onNear = waiting.get(entry.target);
        stopWatching(entry.target);
        onNear?.();
      }
    },
    { rootMargin: NEAR_VIEWPORT_MARGIN },
  );
  return observer;
}

function stopWatching(element: Element): void {
  waiting.delete(element);
  observer?.unobserve(element);
}

/**
 * Whether an element has come near the screen: false in the server's HTML and until the browser
 * reports it (it starts watching once the page has settled), then true for good. `watch` false answers true at once (nothing to wait for), as
 * does a browser without IntersectionObserver. Attach the returned ref to the element.
 */
export function useNearViewport(watch: boolean): [(element: Element | null) => void, boolean] {
  const [near, setNear] = useState(!watch);
  const [element, setElement] = useState<Element | null>(null);
  useEffect(() => {
    if (near || !element) return;
    let watching = true;
    void pageSettled().then(() => {
      if (!watching) return;
      if (typeof IntersectionObserver !== 'function') {
        setNear(true);
        return;
      }
      waiting.set(element, () => {
        setNear(true);
      });
      sharedObserver().observe(element);
    });
    return () => {
      watching = false;
      stopWatching(element);
    };
  }, [near, element]);
  const ref = useCallback((next: Element | null) => {
    setElement(next);
  }, []);
  return [ref, near];
}
