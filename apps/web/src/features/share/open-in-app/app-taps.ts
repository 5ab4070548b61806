import type { MouseEvent } from 'react';
import { reportShareEvent } from '../../../lib/funnel/report-share-event';
import { keepLanguage } from '../page/share-links';
import { watchAppLaunch } from './app-fallback';
import type { AppTarget, Destination } from './app-link';
import { browserLocation } from './browser-location';
import { copyHandoffText } from './handoff-clipboard';
import { launchPlan, storeDestination } from './launch-plan';
import { saveReturnSpot } from './return-spot';
import type { TapContext } from './tap-context';

/** How long the toast before a store stays readable before the store opens. */
export const STORE_TOAST_MS = 1_600;

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}

function sameTarget(a: AppTarget, b: AppTarget): boolean {
  return a?.kind === b?.kind && a?.id === b?.id;
}

/** The share funnel's count of this step (docs/decisions/0018-share-funnel-and-operators-listener.md); nothing without an item. */
function report(
  event: 'open_tapped' | 'store_fallback',
  about: AppTarget,
  leaving = event === 'store_fallback',
) {
  // A tap that leaves the page (the app, the link domain, a store): its beacon goes before,
  // with whatever waits (the view), as a page that is navigating away may not send it later.
  if (about) reportShareEvent(event, about.kind, about.id, { sendNow: leaving });
}

function go(page: TapContext, destination: Destination) {
  if (destination.type === 'url') browserLocation.assign(destination.href);
  else page.navigate(keepLanguage(destination.to, page.search));
}

/** Once the copy is done: the toast (the sheet's dialog would cover it, so that closes), then the store. */
function toastThenGo(page: TapContext, copied: Promise<boolean>, destination: Destination) {
  void Promise.all([copied, page.loadToast().catch(() => undefined)])
    .then(([wasCopied]) => {
      page.setMissingApp(() => ({ sheet: null, toast: { copied: wasCopied } }));
      return wait(STORE_TOAST_MS);
    })
    .then(() => {
      go(page, destination);
      page.setMissingApp((state) => ({ ...state, toast: null }));
    });
}

/**
 * To a store: the share text copied first (started now, within the tap), then a toast that
 * says so, readable for a moment, then the store.
 */
export function hopToStore(
  page: TapContext,
  destination: Destination | 'guide',
  forTarget: AppTarget,
): void {
  if (destination === 'guide') {
    page.closeSheet();
    page.showGuide(forTarget);
    return;
  }
  report('store_fallback', forTarget);
  if (destination.type === 'route') {
    page.closeSheet();
    go(page, destination);
    return;
  }
  const copied = copyHandoffText({
    target: forTarget,
    title: sameTarget(forTarget, page.target) ? page.title : '',
    linkOrigin: page.linkOrigin,
    language: page.language,
  });
  toastThenGo(page, copied, destination);
}

/** "Get the app" for a target: the one store of this browser, or (Android) the sheet's list. */
export function getAppFor(page: TapContext, forTarget: AppTarget): void {
  const destination = storeDestination(page.client);
  if (destination === 'guide') page.openGuide();
  else if (page.client.platform === 'android' && destination.type === 'url')
    page.showSheet(forTarget);
  else hopToStore(page, destination, forTarget);
}

/**
 * "Open in app" at a target, from within the tap (use-open-in-app.ts says why): the browser's
 * plan (launch-plan.ts), the sheet where the app is known to be missing, the guide where nothing
 * opens.
 */
export function openInApp(
  page: TapContext,
  tapped: AppTarget,
  event?: MouseEvent<HTMLElement>,
): void {
  // The link in the server's HTML is for taps before this code arrived; now the plan decides.
  event?.preventDefault();
  const { client, linkOrigin, language, target, image, cancelWatch } = page;
  const plan = launchPlan(tapped, client, navigator.userAgent, linkOrigin);
  report('open_tapped', tapped, plan.type !== 'guide' && !page.appMissing);
  if (plan.type === 'guide') {
    page.showGuide(tapped);
    return;
  }
  if (page.appMissing) {
    // The link domain already said so in this visit: no round trip to learn it again.
    page.showSheet(tapped);
    return;
  }
  if (plan.type === 'download') {
    getAppFor(page, tapped);
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
      ? copyHandoffText({ target: tapped, title: page.title, linkOrigin, language })
      : null;
    cancelWatch.current = watchAppLaunch(document, window, plan.fallbackDelayMs, () => {
      cancelWatch.current = null;
      if (!copied) {
        if (plan.fallback.type === 'url') page.showSheet(tapped);
        else {
          report('store_fallback', tapped);
          go(page, plan.fallback);
        }
        return;
      }
      report('store_fallback', tapped);
      toastThenGo(page, copied, plan.fallback);
    });
  }
  browserLocation.assign(plan.href);
}

/** "Get the app" for the page's own target, from within the tap. */
export function getApp(page: TapContext, event?: MouseEvent<HTMLElement>): void {
  event?.preventDefault();
  getAppFor(page, page.target);
}
