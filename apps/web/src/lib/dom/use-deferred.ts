import { useCallback, useEffect, useState } from 'react';

/**
 * How far ahead of the screen "near" starts: half a screen above and below, so a visitor who
 * scrolls at a reading pace finds the images there.
 */
const NEAR_VIEWPORT_MARGIN = '50% 0px';

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
 * What a deferred element waits for: the page to have loaded and gone quiet (`settled`), or that
 * and then to come near the screen (`near`).
 */
export type DeferUntil = 'settled' | 'near';

/**
 * Whether a deferred element may load: false in the server's HTML and until its moment comes,
 * then true for good; true at once when `until` is undefined (nothing to wait for). A browser
 * without IntersectionObserver treats `near` as `settled`. Attach the returned ref to the element.
 */
export function useDeferred(
  until: DeferUntil | undefined,
): [(element: Element | null) => void, boolean] {
  const [ready, setReady] = useState(until === undefined);
  const [element, setElement] = useState<Element | null>(null);
  useEffect(() => {
    if (ready || !element) return;
    let watching = true;
    void pageSettled().then(() => {
      if (!watching) return;
      if (until === 'settled' || typeof IntersectionObserver !== 'function') {
        setReady(true);
        return;
      }
      waiting.set(element, () => {
        setReady(true);
      });
      sharedObserver().observe(element);
    });
    return () => {
      watching = false;
      stopWatching(element);
    };
  }, [ready, element, until]);
  const ref = useCallback((next: Element | null) => {
    setElement(next);
  }, []);
  return [ref, ready];
}
