import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useLinkOrigin } from '../../../lib/app-links/link-origin';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { useLanguage } from '../../../lib/i18n/language-context';
import { reportShareEvent } from '../../../lib/funnel/report-share-event';
import { keepLanguage } from '../share-links';
import { watchAppLaunch } from './app-fallback';
import { launchPlan, storeDestination, type AppTarget, type Destination } from './app-link';
import { browserLocation } from './browser-location';
import { copyHandoffText } from './handoff-clipboard';

/** A tap on "open" or "get the app": a link in the server's HTML, taken over once the code runs. */
export type AppTap = (event?: MouseEvent<HTMLElement>) => void;

/**
 * "Open in app" and "get the app" for a target. Opening tries the app from the tap itself
 * (browsers open apps only on a user gesture): the Universal Link, whose link domain brings the
 * visitor back here when the app is missing; or the custom scheme, then the store. Every way to a
 * store copies the share text in the same tap (docs/decisions/0017-app-links-and-handoffs.md), so the app opens on this item after
 * its installation. Where the browser opens neither app nor store (WeChat, …): the guide.
 */
export function useOpenInApp(
  target: AppTarget,
  title: string,
): {
  openApp: AppTap;
  getApp: AppTap;
  guideOpen: boolean;
  showGuide: () => void;
  closeGuide: () => void;
} {
  const client = useClientInfo();
  const linkOrigin = useLinkOrigin();
  const language = useLanguage();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [guideOpen, setGuideOpen] = useState(false);
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
    leaving = event === 'store_fallback',
  ) {
    // A tap that leaves the page (the app, the link domain, a store): its beacon goes before,
    // with whatever waits (the view), as a page that is navigating away may not send it later.
    if (target) reportShareEvent(event, target.kind, target.id, { sendNow: leaving });
  }

  function showGuide() {
    report('guide_shown');
    setGuideOpen(true);
  }

  function go(destination: Destination) {
    if (destination.type === 'url') browserLocation.assign(destination.href);
    else void navigate(keepLanguage(destination.to, search));
  }

  /** To a store, with the share text copied first (started now, within the tap). */
  function toStore(destination: Destination) {
    report('store_fallback');
    if (destination.type === 'route') {
      go(destination);
      return;
    }
    void copyHandoffText({ target, title, linkOrigin, language }).then(() => {
      go(destination);
    });
  }

  const openApp: AppTap = (event) => {
    // The link in the server's HTML is for taps before this code arrived; now the plan decides.
    event?.preventDefault();
    const plan = launchPlan(target, client, navigator.userAgent, linkOrigin);
    report('open_tapped', plan.type !== 'guide');
    if (plan.type === 'guide') {
      showGuide();
      return;
    }
    if (plan.type === 'download') {
      toStore(plan.destination);
      return;
    }
    cancelWatch.current?.();
    cancelWatch.current = null;
    if (plan.type === 'launch') {
      // The store follows without another tap if the app does not open: copy now, in this one.
      const copied =
        plan.fallback.type === 'url'
          ? copyHandoffText({ target, title, linkOrigin, language })
          : null;
      cancelWatch.current = watchAppLaunch(document, window, plan.fallbackDelayMs, () => {
        cancelWatch.current = null;
        report('store_fallback');
        if (copied)
          void copied.then(() => {
            go(plan.fallback);
          });
        else go(plan.fallback);
      });
    }
    browserLocation.assign(plan.href);
  };

  const getApp: AppTap = (event) => {
    event?.preventDefault();
    const destination = storeDestination(client);
    if (destination === 'guide') setGuideOpen(true);
    else toStore(destination);
  };

  return {
    openApp,
    getApp,
    guideOpen,
    showGuide,
    closeGuide: () => {
      setGuideOpen(false);
    },
  };
}
