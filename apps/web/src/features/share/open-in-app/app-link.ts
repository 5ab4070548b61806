import { appLinks, download } from '@content/site.json';
import { parseShareId, type ShareKind } from '@guquan/contract/share-paths';
import { appOpening } from '../../../lib/client/app-opening';
import type { ClientInfo } from '../../../lib/client/client-info';

/**
 * Where "open in app" goes (PRODUCT.md "Share pages"): the same item in the app, by a Universal
 * Link on iOS, an intent or the custom scheme on Android; the store when the app did not open.
 * Pure functions of the target, the visitor's browser and content/site.json's `appLinks`.
 */
export interface AppLinkConfig {
  scheme: string;
  universalLinkOrigin: string;
  androidPackage: string;
  fallbackDelayMs: number;
}

export interface StoreUrls {
  ios: string;
  android: string;
}

export const APP_LINKS: AppLinkConfig = appLinks;
const STORE_URLS: StoreUrls = { ios: download.ios.url, android: download.android.url };

/** The website's download section (its id is `download`), for visitors on other platforms. */
const WEBSITE_DOWNLOAD_PATH = '/website#download';

/**
 * What to open in the app: an item (and for goods the image being viewed, counted from 0), or
 * the app's start screen when the page has no valid id.
 */
export type AppTarget = { kind: ShareKind; id: string; image?: number } | null;

/** Kinds the app opens at the image being viewed (goods: the page opens on its gallery). */
const OPENS_AT_IMAGE: Readonly<Record<ShareKind, boolean>> = {
  goods: true,
  cabinet: false,
  note: false,
};

/**
 * The target of a share page: its own `?id=` (even when the page cannot show the item: the app
 * may, e.g. to its author), for goods with the image being viewed; without a valid id, the app's
 * start screen.
 */
export function shareTarget(kind: ShareKind, search: string, image = 0): AppTarget {
  const id = parseShareId(new URLSearchParams(search).get('id'));
  return id ? { kind, id, ...(OPENS_AT_IMAGE[kind] ? { image } : {}) } : null;
}

/** Safari's Smart App Banner for a target: the app, opening where "open in app" would. */
export function appBanner(target: AppTarget): { appId: string; appArgument: string } {
  return { appId: download.ios.appStoreId, appArgument: universalLink(target) };
}

const APP_SEGMENTS: Readonly<Record<ShareKind, string>> = {
  goods: 'goods',
  cabinet: 'cabinet',
  note: 'note',
};

/** The app's own path of a target: `goods/<id>?image=2`, or '' for the start screen. */
export function appPath(target: AppTarget): string {
  if (!target) return '';
  const path = `${APP_SEGMENTS[target.kind]}/${encodeURIComponent(target.id)}`;
  return target.image === undefined ? path : `${path}?image=${target.image}`;
}

/** iOS: a link to the app's associated domain (another domain than this site's, or Safari stays). */
export function universalLink(target: AppTarget, config: AppLinkConfig = APP_LINKS): string {
  return `${config.universalLinkOrigin.replace(/\/$/, '')}/${appPath(target)}`;
}

export function schemeLink(target: AppTarget, config: AppLinkConfig = APP_LINKS): string {
  return `${config.scheme}://${appPath(target)}`;
}

/**
 * Android Chrome: an intent URL. Chrome opens the app, or (not installed) goes to the fallback
 * URL itself; without one it would send the visitor to Google Play, which our APK is not on.
 */
export function intentLink(
  target: AppTarget,
  fallbackUrl: string,
  config: AppLinkConfig = APP_LINKS,
): string {
  return (
    `intent://${appPath(target)}#Intent;scheme=${config.scheme};package=${config.androidPackage};` +
    `S.browser_fallback_url=${encodeURIComponent(fallbackUrl)};end`
  );
}

/** Chrome itself on Android: not a web view, not one of the browsers built on Chromium. */
export function isAndroidChrome(userAgent: string): boolean {
  return (
    /Android/i.test(userAgent) &&
    /Chrome\/[\d.]+ Mobile Safari\/[\d.]+$/i.test(userAgent) &&
    !/; wv\)|Version\/[\d.]+|SamsungBrowser|EdgA|OPR|UCBrowser|MiuiBrowser|HuaweiBrowser|HeyTapBrowser|VivoBrowser|Quark|baiduboxapp|MQQBrowser|YaBrowser/i.test(
      userAgent,
    )
  );
}

/** A place to send the visitor: a full URL (a store) or a path of this site (the website). */
export type Destination = { type: 'url'; href: string } | { type: 'route'; to: string };

export type LaunchPlan =
  /** The browser opens neither the app nor a store (WeChat, …): how to open the page elsewhere. */
  | { type: 'guide' }
  /** Only the store is reachable, or there is no app for this platform: go there now. */
  | { type: 'download'; destination: Destination }
  /** Try the app; if the page is still visible after `fallbackDelayMs`, go to `fallback`. */
  | { type: 'launch'; href: string; fallback: Destination; fallbackDelayMs: number };

/**
 * What "open in app" does in the visitor's browser (app-opening.ts says what each allows): a
 * Universal Link where it works, else the custom scheme (an intent in Chrome on Android), then the
 * store; the store alone where only that works; the guide where nothing does.
 */
export function launchPlan(
  target: AppTarget,
  client: ClientInfo,
  userAgent: string,
  config: AppLinkConfig = APP_LINKS,
  stores: StoreUrls = STORE_URLS,
): LaunchPlan {
  const opening = appOpening(client);
  if (!opening.stores) return { type: 'guide' };
  const fallbackDelayMs = config.fallbackDelayMs;
  if (client.platform === 'ios') {
    const fallback: Destination = { type: 'url', href: stores.ios };
    if (opening.universalLinks)
      return { type: 'launch', href: universalLink(target, config), fallback, fallbackDelayMs };
    if (opening.schemes)
      return { type: 'launch', href: schemeLink(target, config), fallback, fallbackDelayMs };
    return { type: 'download', destination: fallback };
  }
  if (client.platform === 'android') {
    const fallback: Destination = { type: 'url', href: stores.android };
    if (!opening.schemes) return { type: 'download', destination: fallback };
    const href =
      client.inAppBrowser === 'none' && isAndroidChrome(userAgent)
        ? intentLink(target, stores.android, config)
        : schemeLink(target, config);
    return { type: 'launch', href, fallback, fallbackDelayMs };
  }
  return { type: 'download', destination: { type: 'route', to: WEBSITE_DOWNLOAD_PATH } };
}
