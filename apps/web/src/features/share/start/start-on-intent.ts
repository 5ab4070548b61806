import type { StartedApp } from '../../../lib/app-start/app-started';

/**
 * A share page's app (React, the router, the page's own code) starts on the visitor's first
 * intent, not with the page (docs/decisions/0031-share-pages-start-without-react.md): a finger
 * touching the screen, a key, focus moving into the page. What the visitor then clicks before it
 * is here is held and done once it is: a link inside the site by the router, without a reload; a
 * button by clicking it again. If the app cannot be had (offline, a new deployment removed its
 * code), a held link goes where its `href` says, by a document load; a held button does nothing,
 * as it did nothing before.
 */

export type { StartedApp };

/** The events that say a visitor is about to act. */
export const INTENT_EVENTS = ['pointerdown', 'keydown', 'focusin'] as const;

export interface StartOnIntentOptions {
  /** Where the page's content is: clicks inside it are held until the app is here. */
  root: HTMLElement;
  /** Starts the app once; resolves when it has hydrated the page. */
  startApp: () => Promise<StartedApp>;
  /** The site's base path ("/anime_merch_web"): links under it are the router's. */
  basePath: string;
  /** Whether a click is someone else's to handle before the app (the tap code's links). */
  handledElsewhere?: (event: MouseEvent) => boolean;
  /** A document load, for a held link when the app cannot start (a test stands in for it). */
  assign?: (href: string) => void;
}

/** A link the router can follow: same origin, under the base, opened here, with no download. */
export function routerPath(anchor: HTMLAnchorElement, basePath: string): string | null {
  if (!anchor.hasAttribute('href') || anchor.hasAttribute('download')) return null;
  if (anchor.target !== '' && anchor.target !== '_self') return null;
  // A link that asks for a document load (the language switch: another language's fonts).
  if (anchor.hasAttribute('data-reload-document')) return null;
  const url = new URL(anchor.href, anchor.ownerDocument.baseURI);
  const { location } = anchor.ownerDocument.defaultView ?? window;
  if (url.origin !== location.origin) return null;
  if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return null;
  return `${url.pathname.slice(basePath.length) || '/'}${url.search}${url.hash}`;
}

function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * Listens for the first intent and starts the app then. Returns the start itself, so that a page
 * that needs the app without waiting (a return from the link domain, a desktop) can ask for it
 * too. Every listener is removed once the app is here, or could not be had.
 */
export function startOnIntent(options: StartOnIntentOptions): () => Promise<StartedApp | null> {
  const { root, startApp, basePath, handledElsewhere, assign } = options;
  const doc = root.ownerDocument;
  let started: Promise<StartedApp | null> | undefined;
  const held: ((app: StartedApp) => void)[] = [];
  const heldOnFailure: (() => void)[] = [];

  const start = (): Promise<StartedApp | null> => {
    started ??= startApp().then(
      (app) => {
        stop();
        for (const replay of held.splice(0)) replay(app);
        heldOnFailure.length = 0;
        return app;
      },
      () => {
        stop();
        for (const fallback of heldOnFailure.splice(0)) fallback();
        held.length = 0;
        return null;
      },
    );
    return started;
  };

  const onIntent = () => {
    void start();
  };

  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || !isPlainClick(event)) return;
    if (handledElsewhere?.(event)) return;
    const target = event.target instanceof Element ? event.target : null;
    const anchor = target?.closest('a');
    const button = target?.closest('button, [role="button"]');
    if (anchor instanceof HTMLAnchorElement) {
      const path = routerPath(anchor, basePath);
      if (path === null) return;
      event.preventDefault();
      const href = anchor.href;
      held.push((app) => {
        app.navigate(path);
      });
      heldOnFailure.push(() => {
        (assign ?? ((to: string) => doc.defaultView?.location.assign(to)))(href);
      });
    } else if (button instanceof HTMLElement) {
      event.preventDefault();
      held.push(() => {
        if (button.isConnected) button.click();
      });
    } else {
      return;
    }
    onIntent();
  };

  for (const type of INTENT_EVENTS) doc.addEventListener(type, onIntent, { capture: true });
  root.addEventListener('click', onClick, { capture: true });

  function stop() {
    for (const type of INTENT_EVENTS) doc.removeEventListener(type, onIntent, { capture: true });
    root.removeEventListener('click', onClick, { capture: true });
  }

  return start;
}
