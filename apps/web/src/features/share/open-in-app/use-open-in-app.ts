import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useLinkOrigin } from '../../../lib/app-links/link-origin';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { useLanguage } from '../../../lib/i18n/language-context';
import { reportShareEvent } from '../../../lib/funnel/report-share-event';
import { loadMissingAppLayer } from '../missing-app-sheet/missing-app-on-demand';
import { keepLanguage } from '../share-links';
import { watchAppLaunch } from './app-fallback';
import { launchPlan, storeDestination, type AppTarget, type Destination } from './app-link';
import { browserLocation } from './browser-location';
import { copyHandoffText } from './handoff-clipboard';
import { saveReturnSpot } from './return-spot';

/** A tap on "open" or "get the app": a link in the server's HTML, taken over once the code runs. */
export type AppTap = (event?: MouseEvent<HTMLElement>) => void;

/**
 * Opens the app at a target (an item, and later a user, a tag…: whatever the app's link paths
 * name), or, where the app is known to be missing, shows the missing-app sheet. Call it from the
 * tap itself (browsers open apps only on a user gesture); pass the tap's event so the link in the
 * server's HTML does not also navigate.
 */
export type OpenInApp = (target: AppTarget, event?: MouseEvent<HTMLElement>) => void;

/** How long the toast before a store stays readable before the store opens. */
export const STORE_TOAST_MS = 1_600;

export interface MissingAppState {
  /** The sheet is open, about this target; `returned`: the link domain just sent the visitor back. */
  sheet: { target: AppTarget; returned: boolean } | null;
  /** The toast before a store: whether the share code reached the clipboard. */
  toast: { copied: boolean } | null;
}

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

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}

function sameTarget(a: AppTarget, b: AppTarget): boolean {
  return a?.kind === b?.kind && a?.id === b?.id;
}

/**
 * "Open in app" and "get the app" for a page's target, and `openInApp` for any other. Opening
 * tries the app from the tap itself: the Universal Link, whose link domain brings the visitor back
 * here when the app is missing (where they were: return-spot.ts; the sheet then says so); or the
 * custom scheme, then the store (iOS) or the sheet (Android, which offers the stores of the phone).
 * Every way to a store copies the share text in the same tap
 * (docs/decisions/0017-app-links-and-handoffs.md) and says so in a toast before the store opens.
 * Where the browser opens neither app nor store (WeChat, …): the guide.
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
  const [guideOpen, setGuideOpen] = useState(false);
  const [missingApp, setMissingApp] = useState<MissingAppState>({ sheet: null, toast: null });
  const cancelWatch = useRef<(() => void) | null>(null);

  useEffect(
    () => () => {
      cancelWatch.current?.();
    },
    [],
  );

  /** The share funnel's count of this step (docs/decisions/0018-share-funnel-and-operators-listener.md); nothing without an item. */
  function report(
    event: 'open_tapped' | 'store_fallback' | 'guide_shown',
    about: AppTarget,
    leaving = event === 'store_fallback',
  ) {
    // A tap that leaves the page (the app, the link domain, a store): its beacon goes before,
    // with whatever waits (the view), as a page that is navigating away may not send it later.
    if (about) reportShareEvent(event, about.kind, about.id, { sendNow: leaving });
  }

  function showGuide(about: AppTarget = target) {
    report('guide_shown', about);
    setGuideOpen(true);
  }

  function go(destination: Destination) {
    if (destination.type === 'url') browserLocation.assign(destination.href);
    else void navigate(keepLanguage(destination.to, search));
  }

  function showSheet(forTarget: AppTarget, returned = false) {
    setMissingApp({ sheet: { target: forTarget, returned }, toast: null });
  }

  function closeSheet() {
    setMissingApp((state) => ({ ...state, sheet: null }));
  }

  /**
   * To a store: the share text copied first (started now, within the tap), then a toast that
   * says so, readable for a moment, then the store.
   */
  function hopToStore(destination: Destination | 'guide', forTarget: AppTarget) {
    if (destination === 'guide') {
      closeSheet();
      showGuide(forTarget);
      return;
    }
    report('store_fallback', forTarget);
    if (destination.type === 'route') {
      closeSheet();
      go(destination);
      return;
    }
    const copied = copyHandoffText({
      target: forTarget,
      title: sameTarget(forTarget, target) ? title : '',
      linkOrigin,
      language,
    });
    toastThenGo(copied, destination);
  }

  /** Once the copy is done: the toast (the sheet's dialog would cover it, so that closes), then the store. */
  function toastThenGo(copied: Promise<boolean>, destination: Destination) {
    void Promise.all([copied, loadMissingAppLayer().catch(() => undefined)])
      .then(([wasCopied]) => {
        setMissingApp({ sheet: null, toast: { copied: wasCopied } });
        return wait(STORE_TOAST_MS);
      })
      .then(() => {
        go(destination);
        setMissingApp((state) => ({ ...state, toast: null }));
      });
  }

  /** "Get the app" for a target: the one store of this browser, or (Android) the sheet's list. */
  function getAppFor(forTarget: AppTarget) {
    const destination = storeDestination(client);
    if (destination === 'guide') setGuideOpen(true);
    else if (client.platform === 'android' && destination.type === 'url') showSheet(forTarget);
    else hopToStore(destination, forTarget);
  }

  const openInApp: OpenInApp = (tapped, event) => {
    // The link in the server's HTML is for taps before this code arrived; now the plan decides.
    event?.preventDefault();
    const plan = launchPlan(tapped, client, navigator.userAgent, linkOrigin);
    report('open_tapped', tapped, plan.type !== 'guide' && !appMissing);
    if (plan.type === 'guide') {
      showGuide(tapped);
      return;
    }
    if (appMissing) {
      // The link domain already said so in this visit: no round trip to learn it again.
      showSheet(tapped);
      return;
    }
    if (plan.type === 'download') {
      getAppFor(tapped);
      return;
    }
    cancelWatch.current?.();
    cancelWatch.current = null;
    if (plan.type === 'link') {
      // The link domain sends a visitor without the app back to a new page: it starts here.
      if (target)
        saveReturnSpot(target.kind, target.id, {
          scrollY: Math.max(0, Math.round(window.scrollY)),
          ...(image === undefined ? {} : { image }),
        });
    } else {
      const iosStore = client.platform === 'ios' && plan.fallback.type === 'url';
      // iOS has one store, which follows without another tap: copy now, in this one. Android
      // offers its stores in the sheet, whose tap copies.
      const copied = iosStore
        ? copyHandoffText({ target: tapped, title, linkOrigin, language })
        : null;
      cancelWatch.current = watchAppLaunch(document, window, plan.fallbackDelayMs, () => {
        cancelWatch.current = null;
        if (!copied) {
          if (plan.fallback.type === 'url') showSheet(tapped);
          else {
            report('store_fallback', tapped);
            go(plan.fallback);
          }
          return;
        }
        report('store_fallback', tapped);
        toastThenGo(copied, plan.fallback);
      });
    }
    browserLocation.assign(plan.href);
  };

  const openApp: AppTap = (event) => {
    openInApp(target, event);
  };

  const getApp: AppTap = (event) => {
    event?.preventDefault();
    getAppFor(target);
  };

  return {
    openApp,
    getApp,
    openInApp,
    hopToStore,
    showSheet,
    closeSheet,
    missingApp,
    guideOpen,
    showGuide: () => {
      showGuide();
    },
    closeGuide: () => {
      setGuideOpen(false);
    },
  };
}
