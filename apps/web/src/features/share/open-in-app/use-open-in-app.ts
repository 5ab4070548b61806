import { useEffect, useRef, useSyncExternalStore, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useLinkOrigin } from '../../../lib/app-links/link-origin';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { useLanguage } from '../../../lib/i18n/language-context';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { loadMissingAppLayer } from '../missing-app-sheet/missing-app-on-demand';
import { keepLanguage } from '../page/share-links';
import { universalLink, WEBSITE_DOWNLOAD_PATH, type AppTarget, type Destination } from './app-link';
import { appTapCode, preloadAppTaps } from './app-taps-on-demand';
import { browserLocation } from './browser-location';
import * as promptStore from './prompt-store';
import type { MissingAppState, TapContext } from './tap-context';

/** A tap on "open" or "get the app": a link in the server's HTML, taken over once the code runs. */
export type AppTap = (event?: MouseEvent<HTMLElement>) => void;

/**
 * Opens the app at a target (an item, and later a user, a tag…: whatever the app's link paths
 * name), or, where the app is known to be missing, shows the missing-app sheet. Call it from the
 * tap itself (browsers open apps only on a user gesture); pass the tap's event so the link in the
 * server's HTML does not also navigate.
 */
export type OpenInApp = (target: AppTarget, event?: MouseEvent<HTMLElement>) => void;

export interface OpenInAppControls {
  /** Opens the page's own target (the item, at the image on screen). */
  openApp: AppTap;
  /** Heads for the store (copying the share text), or offers the stores, or the guide. */
  getApp: AppTap;
  /** Opens the app at any target, or shows the sheet: see OpenInApp. */
  openInApp: OpenInApp;
  /** A store chosen in the sheet (or the one store of this browser), from within the tap. */
  hopToStore: (destination: Destination | 'guide', forTarget: AppTarget) => void;
  showSheet: (forTarget: AppTarget, returned?: boolean) => void;
  closeSheet: () => void;
  missingApp: MissingAppState;
  guideOpen: boolean;
  showGuide: () => void;
  closeGuide: () => void;
}

/**
 * A tap before the tap code is here (app-taps-on-demand.ts: it loads once the page has hydrated):
 * a link follows its own `href`, as in the server's HTML (the Universal Link, the website's
 * download section): no preventDefault, nothing counted (the link domain counts its fallback).
 * Anything else tapped (a "more" button, a comment) goes where its link would: `href`.
 */
function beforeTapCode(href: string, event: MouseEvent<HTMLElement> | undefined): void {
  preloadAppTaps();
  const tapped = event?.currentTarget;
  if (tapped instanceof HTMLAnchorElement && tapped.hasAttribute('href')) return;
  browserLocation.assign(href);
}

/**
 * "Open in app" and "get the app" for a page's target, and `openInApp` for any other. Opening
 * tries the app from the tap itself: the Universal Link, whose link domain brings the visitor back
 * here when the app is missing (where they were: return-spot.ts; the sheet then says so); or the
 * custom scheme, then the store (iOS) or the sheet (Android, which offers the stores of the phone).
 * Every way to a store copies the share text in the same tap
 * (docs/decisions/0017-app-links-and-handoffs.md) and says so in a toast before the store opens.
 * Where the browser opens neither app nor store (WeChat, …): the guide. What a tap decides is
 * app-taps.ts, loaded once the page has hydrated and run synchronously within the tap; the state
 * it sets (the sheet, the toast, the guide) is the page's prompt store (prompt-store.ts), which
 * this hook reads, and clears when its page's prompt goes.
 */
export function useOpenInApp({
  target,
  title,
  appMissing,
  image,
}: {
  target: AppTarget;
  title: string;
  /** The link domain sent the visitor back: the app is not installed. */
  appMissing: boolean;
  /** The gallery's image on screen, kept for the return (goods carry it in their link too). */
  image: number | undefined;
}): OpenInAppControls {
  const client = useClientInfo();
  const linkOrigin = useLinkOrigin();
  const language = useLanguage();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { missingApp, guideOpen } = useSyncExternalStore(
    promptStore.subscribe,
    promptStore.getSnapshot,
    // The server's page, and hydration, show no prompt: whatever the store holds comes after.
    () => promptStore.EMPTY_PROMPT,
  );
  const cancelWatch = useRef<(() => void) | null>(null);

  useEffect(() => {
    // The page has hydrated: the code of its taps comes now, not with its start-up.
    preloadAppTaps();
  }, []);

  useEffect(
    () => () => {
      cancelWatch.current?.();
    },
    [],
  );

  // Mounted: StrictMode's rehearsal of an unmount (in development) must not clear the prompt.
  const live = useRef(false);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      // The page's prompt goes (the visitor left the share pages): so does what it showed, as
      // when this state was the provider's own (prompt-store.ts). Unless it was a rehearsal,
      // whose remount follows at once, before this.
      queueMicrotask(() => {
        if (!live.current) promptStore.reset();
      });
    };
  }, []);

  const page: TapContext = {
    client,
    linkOrigin,
    language,
    navigate: (to) => {
      void navigate(to);
    },
    search,
    target,
    title,
    image,
    appMissing,
    setMissingApp: promptStore.setMissingApp,
    showSheet: promptStore.showSheet,
    closeSheet: promptStore.closeSheet,
    showGuide: promptStore.showGuide,
    openGuide: promptStore.openGuide,
    loadToast: loadMissingAppLayer,
    cancelWatch,
  };

  const openInApp: OpenInApp = (tapped, event) => {
    const taps = appTapCode.get();
    if (taps) taps.openInApp(page, tapped, event);
    else beforeTapCode(universalLink(linkOrigin, tapped), event);
  };

  const getApp: AppTap = (event) => {
    const taps = appTapCode.get();
    if (taps) taps.getApp(page, event);
    else beforeTapCode(`${BASE_PATH}${keepLanguage(WEBSITE_DOWNLOAD_PATH, search)}`, event);
  };

  return {
    openApp: (event) => {
      openInApp(target, event);
    },
    getApp,
    openInApp,
    // The sheet loads the tap code with its own (missing-app-on-demand.ts): here by its tap.
    hopToStore: (destination, forTarget) => {
      appTapCode.get()?.hopToStore(page, destination, forTarget);
    },
    showSheet: promptStore.showSheet,
    closeSheet: promptStore.closeSheet,
    missingApp,
    guideOpen,
    showGuide: () => {
      promptStore.showGuide(target);
    },
    closeGuide: promptStore.closeGuide,
  };
}
