import { APP_MISSING_PARAM } from '@guquan/contract/app-link-paths';
import { isLanguage } from '@guquan/contract/language';
import { detectClient } from '@guquan/contract/client-info';
import { sharePageKind, type ShareKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { appStarted } from '../../../lib/app-start/app-started';
import { startDeferredImages } from '../../../lib/dom/deferred-images';
import { readLinkOrigin } from '../../../lib/app-links/read-link-origin';
import { canHaveApp } from '../../../lib/client/app-opening';
import { reportView } from '../../../lib/funnel/report-view';
import { documentLanguage } from '../../../lib/i18n/document-language';
import { pathInLanguage } from '../../../lib/i18n/language-switch';
import { renderedLocation } from '../../../lib/routing/rendered-location';
import { installFlexibleLayout } from '../../../lib/layout/flexible-layout';
import { getApp, openInApp } from '../open-in-app/app-taps';
import {
  dismissAppBar,
  isAppBarDismissed,
  subscribeToAppBar,
} from '../open-in-app/dismissed-store';
import { shareTarget } from '../open-in-app/app-link';
import { browserLocation } from '../open-in-app/browser-location';
import * as promptStore from '../open-in-app/prompt-store';
import type { TapContext } from '../open-in-app/tap-context';
import { startOnIntent, type StartedApp } from './start-on-intent';

/**
 * A share page before React (docs/decisions/0031-share-pages-start-without-react.md). The page the
 * server sent is complete; this gives it, within a few milliseconds of its first image, what it
 * does before the visitor acts: the view counted, and the taps into the app with their whole plan
 * (the Universal Link, the scheme, the store, the share code copied), from the same code the app
 * runs. The app (React, the router) starts on the visitor's first intent (start-on-intent.ts), or
 * at once where the page needs it without waiting: a return from the link domain (its sheet), an
 * address that moved before this ran, a browser that cannot have the app (its QR code), WeChat
 * (its share card and open tag). What the prompt shows (the sheet, the toast, the guide) is the
 * prompt store's, which the app draws once it is here.
 *
 * `<html data-app-start>` says where the page is: `on-intent`, `starting`, `started`.
 * `<html data-app-bar="dismissed">` hides the app bar (open-app-bar.module.css) the visitor closed
 * earlier in the tab, or closes now before the app is here.
 */

/** The share page an address shows, and its item. */
function shareAddress({ pathname, search }: { pathname: string; search: string }) {
  return { kind: sharePageKind(pathname), id: new URLSearchParams(search).get('id') };
}

/** Whether the page needs the app without waiting for the visitor (see above). */
function startsAtOnce(doc: Document): boolean {
  const { location, defaultView } = doc;
  const rendered = renderedLocation(doc);
  const here = shareAddress(location);
  const there = rendered ? shareAddress(rendered) : undefined;
  if (!there || there.kind !== here.kind || there.id !== here.id) return true;
  if (new URLSearchParams(location.search).has(APP_MISSING_PARAM)) return true;
  const client = detectClient(defaultView?.navigator.userAgent ?? '');
  return !canHaveApp(client) || client.inAppBrowser === 'wechat';
}

/** The tap code's view of the page, made from the server's page instead of React's. */
function tapContext(doc: Document, kind: ShareKind, start: () => Promise<StartedApp | null>) {
  const window = doc.defaultView ?? globalThis.window;
  const language = documentLanguage(doc, doc.location, window.navigator.languages);
  const target = shareTarget(kind, doc.location.search);
  const page: TapContext = {
    client: detectClient(window.navigator.userAgent),
    linkOrigin: readLinkOrigin(doc),
    language,
    navigate: (to) => {
      void start().then((app) => {
        if (app) app.navigate(to);
        else browserLocation.assign(`${BASE_PATH}${to}`);
      });
    },
    search: doc.location.search,
    target,
    title: doc.querySelector('#root main h1')?.textContent.trim() ?? '',
    image: undefined,
    appMissing: false,
    // The app draws what the prompt shows: it starts now, and reads the store once it is here.
    setMissingApp: (update) => {
      promptStore.setMissingApp(update);
      void start();
    },
    showSheet: (about) => {
      promptStore.showSheet(about);
      void start();
    },
    closeSheet: promptStore.closeSheet,
    showGuide: (about) => {
      promptStore.showGuide(about);
      void start();
    },
    openGuide: () => {
      promptStore.openGuide();
      void start();
    },
    loadToast: () =>
      start().then((app) => {
        if (!app) throw new Error('The app could not start to draw the toast');
      }),
    cancelWatch: { current: null },
  };
  return page;
}

/**
 * The language switch with this address: a page rendered once for many addresses (the not-found
 * page of every unknown id) links to the address it was first rendered for. The app makes the
 * link again once hydrated (language-switch.tsx); before, the browser follows this one.
 */
function switchLanguageHere(root: HTMLElement): void {
  const { pathname, search } = root.ownerDocument.location;
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-reload-document][hreflang]'))
    if (isLanguage(link.hreflang)) link.href = pathInLanguage(pathname, search, link.hreflang);
}

/**
 * A tap on "open in app", "get the app" or the app bar's close button before the app is here;
 * false if it is not one.
 */
function tapIntoApp(event: MouseEvent, page: TapContext): boolean {
  if (event.defaultPrevented || !(event.target instanceof Element)) return false;
  const close = event.target.closest('[data-app-bar-dismiss]');
  if (close) {
    event.preventDefault();
    dismissAppBar();
    return true;
  }
  const link = event.target.closest('[data-app-tap]');
  if (!(link instanceof HTMLElement)) return false;
  event.preventDefault();
  if (link.dataset.appTap === 'get') getApp(page);
  else openInApp(page, page.target);
  return true;
}

/**
 * Starts a share page: called by the page's inline start-up script (the server's page-assets.ts)
 * once its first image is drawn, with the start of the app.
 */
export function startPage(startApp: () => Promise<unknown>): void {
  const doc = document;
  const root = doc.getElementById('root');
  const { kind } = shareAddress(doc.location);
  if (!root || !kind) {
    void startApp();
    return;
  }
  const html = doc.documentElement;
  installFlexibleLayout(window);
  // The app bar follows the tab's store (closed earlier, or now by a tap), which the app reads too.
  const hideAppBar = () => {
    if (isAppBarDismissed()) html.dataset.appBar = 'dismissed';
  };
  hideAppBar();
  subscribeToAppBar(hideAppBar);
  switchLanguageHere(root);
  const tap: { page?: TapContext } = {};
  const start = startOnIntent({
    root,
    basePath: BASE_PATH,
    startApp: () => {
      html.dataset.appStart = 'starting';
      return startApp().then(() => appStarted);
    },
    handledElsewhere: (event) => (tap.page ? tapIntoApp(event, tap.page) : false),
  });
  tap.page = tapContext(doc, kind, start);
  void appStarted.then(() => {
    html.dataset.appStart = 'started';
  });

  // The gallery's other images once the page has settled, a cabinet's far tiles near the screen:
  // the same module the app hands them to, which gives each box one image.
  startDeferredImages(root);

  // Counted once the page is on screen, as the app counts it (the same module: once per item).
  const viewed = root.querySelector<HTMLElement>('[data-share-view]');
  if (viewed) reportView(kind, viewed.dataset.shareView || null);

  // An address changed by the browser's history before the app is here: the app follows it.
  window.addEventListener('popstate', () => void start(), { once: true });
  if (startsAtOnce(doc)) void start();
  else html.dataset.appStart ??= 'on-intent';
}
