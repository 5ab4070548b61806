import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useClientInfo } from '../../../lib/client/client-info-context';
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

  function go(destination: Destination) {
    if (destination.type === 'url') browserLocation.assign(destination.href);
    else void navigate(keepLanguage(destination.to, search));
  }

  function openApp() {
    const plan = launchPlan(target, client, navigator.userAgent);
    if (plan.type === 'guide') {
      setGuideOpen(true);
      return;
    }
    if (plan.type === 'download') {
      go(plan.destination);
      return;
    }
    cancelWatch.current?.();
    cancelWatch.current = watchAppLaunch(document, window, plan.fallbackDelayMs, () => {
      cancelWatch.current = null;
      go(plan.fallback);
    });
    browserLocation.assign(plan.href);
  }

  return {
    openApp,
    guideOpen,
    showGuide: () => {
      setGuideOpen(true);
    },
    closeGuide: () => {
      setGuideOpen(false);
    },
  };
}
