import { appLinks, download } from '@content/site.json';
import {
  appPath,
  opensAtImage,
  universalLink,
  type AppTarget,
} from '@guquan/contract/app-link-paths';
import { parseShareId, type ShareKind } from '@guquan/contract/share-paths';
import { appOpening } from '../../../lib/client/app-opening';
import type { ClientInfo } from '@guquan/contract/client-info';

/**
 * Where "open in app" and "get the app" go (PRODUCT.md "Share pages", docs/decisions/0017-app-links-and-handoffs.md): the same item
 * in the app, by its Universal Link (App Link on Android) on the link domain, the custom scheme
 * where a browser blocks those; the store when the app is missing. Pure functions of the target,
 * the visitor's browser, the link domain (the server's LINK_ORIGIN) and content/site.json.
 */
export interface AppLinkConfig {
  scheme: string;
  fallbackDelayMs: number;
}

export interface StoreUrls {
  ios: string;
  android: string;
}

export const APP_LINKS: AppLinkConfig = appLinks;
const STORE_URLS: StoreUrls = { ios: download.ios.url, android: download.android.url };

/** The website's download section (its id is `download`), for visitors on other platforms. */
export const WEBSITE_DOWNLOAD_PATH = '/website#download';

export type { AppTarget };

/**
 * The target of a share page: its own `?id=` (even when the page cannot show the item: the app
 * may, e.g. to its author), for goods with the image being viewed; without a valid id, the app's
 * start screen.
 */
export function shareTarget(kind: ShareKind, search: string, image = 0): AppTarget {
  const id = parseShareId(new URLSearchParams(search).get('id'));
  return id ? { kind, id, ...(opensAtImage(kind) ? { image } : {}) } : null;
}

/** Safari's Smart App Banner for a target: the app, opening where "open in app" would. */
export function appBanner(
  target: AppTarget,
  linkOrigin: string,
): { appId: string; appArgument: string } {
  return { appId: download.ios.appStoreId, appArgument: universalLink(linkOrigin, target) };
}

export { appPath, universalLink };

export function schemeLink(target: AppTarget, config: AppLinkConfig = APP_LINKS): string {
  return `${config.scheme}://${appPath(target)}`;
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
  /**
   * The item's Universal Link (App Link): the phone opens the app, or, when it is not installed,
   * the browser loads the link domain, which brings the visitor back to this page saying so
   * ("Get the app" first). No timer: the link domain is the fallback.
   */
  | { type: 'link'; href: string }
  /** The custom scheme; if the page is still visible after `fallbackDelayMs`, go to `fallback`. */
  | { type: 'launch'; href: string; fallback: Destination; fallbackDelayMs: number };

/**
 * Where "get the app" goes in the visitor's browser: the App Store on iOS, the APK on Android, the
 * website's download section elsewhere; the guide where stores cannot be reached (WeChat, …).
 */
export function storeDestination(
  client: ClientInfo,
  stores: StoreUrls = STORE_URLS,
): Destination | 'guide' {
  if (!appOpening(client).stores) return 'guide';
  if (client.platform === 'ios') return { type: 'url', href: stores.ios };
  if (client.platform === 'android') return { type: 'url', href: stores.android };
  return { type: 'route', to: WEBSITE_DOWNLOAD_PATH };
}

/**
 * What "open in app" does in the visitor's browser (app-opening.ts says what each allows): the
 * Universal Link where it works (Safari on iOS; Chrome on Android, where it is an App Link), else
 * the custom scheme, then the store; the store alone where only that works; the guide where
 * nothing does.
 */
export function launchPlan(
  target: AppTarget,
  client: ClientInfo,
  userAgent: string,
  linkOrigin: string,
  config: AppLinkConfig = APP_LINKS,
  stores: StoreUrls = STORE_URLS,
): LaunchPlan {
  const opening = appOpening(client);
  const store = storeDestination(client, stores);
  if (store === 'guide') return { type: 'guide' };
  const fallbackDelayMs = config.fallbackDelayMs;
  if (client.platform === 'ios') {
    if (opening.universalLinks) return { type: 'link', href: universalLink(linkOrigin, target) };
    if (opening.schemes)
      return { type: 'launch', href: schemeLink(target, config), fallback: store, fallbackDelayMs };
    return { type: 'download', destination: store };
  }
  if (client.platform === 'android') {
    if (client.inAppBrowser === 'none' && isAndroidChrome(userAgent))
      return { type: 'link', href: universalLink(linkOrigin, target) };
    if (!opening.schemes) return { type: 'download', destination: store };
    return { type: 'launch', href: schemeLink(target, config), fallback: store, fallbackDelayMs };
  }
  return { type: 'download', destination: store };
}
