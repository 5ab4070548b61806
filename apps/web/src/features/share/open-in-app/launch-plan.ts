import { appLinks, download } from '@content/site.json';
import type { ClientInfo } from '@guquan/contract/client-info';
import { appOpening } from '../../../lib/client/app-opening';
import {
  schemeLink,
  universalLink,
  WEBSITE_DOWNLOAD_PATH,
  type AppTarget,
  type Destination,
} from './app-link';

/**
 * What a tap on "open in app" or "get the app" does in the visitor's browser
 * (docs/decisions/0017-app-links-and-handoffs.md): the Universal Link, the custom scheme then the
 * store, the store alone, or the guide. Only a tap needs it: it comes with the page's tap code
 * (app-taps.ts), after the page has started. Pure functions of the target, the visitor's browser,
 * the link domain and content/site.json.
 */
export interface AppLinkConfig {
  scheme: string;
  fallbackDelayMs: number;
}

export const APP_LINKS: AppLinkConfig = appLinks;

export interface StoreUrls {
  ios: string;
  android: string;
}

const STORE_URLS: StoreUrls = { ios: download.ios.url, android: download.android.url };

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
      return {
        type: 'launch',
        href: schemeLink(target, config.scheme),
        fallback: store,
        fallbackDelayMs,
      };
    return { type: 'download', destination: store };
  }
  if (client.platform === 'android') {
    if (client.inAppBrowser === 'none' && isAndroidChrome(userAgent))
      return { type: 'link', href: universalLink(linkOrigin, target) };
    if (!opening.schemes) return { type: 'download', destination: store };
    return {
      type: 'launch',
      href: schemeLink(target, config.scheme),
      fallback: store,
      fallbackDelayMs,
    };
  }
  return { type: 'download', destination: store };
}
