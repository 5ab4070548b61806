import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { reportShareEvent } from '../../../lib/funnel/report-share-event';
import { keepLanguage } from '../share-links';
import { watchAppLaunch } from './app-fallback';
import { launchPlan, type AppTarget, type Destination } from './app-link';
import { browserLocation } from './browser-location';

/**
 * "Open in app" for a target: try the app from the tap itself (browsers open apps only on a
 * user gesture), fall back to the store; where the browser opens neither (WeChat, …) show the guide instead.
 */
export function useOpenInApp(target: AppTarget): {
  openApp: () => void;
  guideOpen: boolean;
  showGuide: () => void;
  closeGuide: () => void;
} {
  const client = useClientInfo();
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

  /** The share funnel's count of this step (decision 18); nothing without an item. */
  function report(event: 'open_tapped' | 'store_fallback' | 'guide_shown') {
    // The store fallback leaves the page at once: its beacon goes before.
    if (target)
      reportShareEvent(event, target.kind, target.id, { sendNow: event === 'store_fallback' });
  }

  function showGuide() {
    report('guide_shown');
    setGuideOpen(true);
  }

  function go(destination: Destination) {
    if (destination.type === 'url') browserLocation.assign(destination.href);
    else void navigate(keepLanguage(destination.to, search));
  }

  function openApp() {
    report('open_tapped');
    const plan = launchPlan(target, client, navigator.userAgent);
    if (plan.type === 'guide') {
      showGuide();
      return;
    }
    if (plan.type === 'download') {
      report('store_fallback');
      go(plan.destination);
      return;
    }
    cancelWatch.current?.();
    cancelWatch.current = watchAppLaunch(document, window, plan.fallbackDelayMs, () => {
      cancelWatch.current = null;
      report('store_fallback');
      go(plan.fallback);
    });
    browserLocation.assign(plan.href);
  }

  return {
    openApp,
    guideOpen,
    showGuide,
    closeGuide: () => {
      setGuideOpen(false);
    },
  };
}
