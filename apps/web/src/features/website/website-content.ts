import { company, download } from '@content/site.json';
import website from '@content/website.json';
import type { Language } from '@guquan/contract/language';
import { routeTable, type RouteEntry } from '../../config/route-table';
import type { InAppBrowser, Platform } from '@guquan/contract/client-info';

/**
 * The official website's texts, links and numbers, from content/website.json
 * and the company's facts and store links in content/site.json (PRODUCT.md
 * "Official website": operators change them without touching code).
 */
export type WebsiteTexts = (typeof website)['zh-CN'];

// Typed against the Chinese texts: an English text missing or misshapen fails the type check.
const texts: Readonly<Record<Language, WebsiteTexts>> = website;

export function websiteTexts(language: Language): WebsiteTexts {
  return texts[language];
}

export { company };

export type Store = 'ios' | 'android';

export const storeUrls: Readonly<Record<Store, string>> = {
  ios: download.ios.url,
  android: download.android.url,
};

/** The stores in the order the visitor sees them: their own platform's first, else iOS first. */
export function storeOrder(platform: Platform): readonly [Store, Store] {
  return platform === 'android' ? ['android', 'ios'] : ['ios', 'android'];
}

/** Fills `{app}` in a text with the in-app browser's name (微信, QQ, 微博). */
export function withAppName(
  template: string,
  inAppBrowser: InAppBrowser,
  names: WebsiteTexts['download']['inAppNames'],
): string {
  const name = inAppBrowser === 'none' ? '' : names[inAppBrowser];
  return template.replaceAll('{app}', name);
}

/** The router path (under the base path) of a route the content names by its id, if it exists. */
export function routePathById(id: string): string | undefined {
  const entry: RouteEntry | undefined = (routeTable as readonly RouteEntry[]).find(
    (route) => route.id === id,
  );
  return entry && entry.path !== '*' ? entry.path : undefined;
}

/** `tel:` link of a phone number written for people (`0571-8888 6666` → `tel:057188886666`). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
