/**
 * What the page needs to know about the visitor's device, read from the User-Agent — by the server
 * (from the request header) and by the browser (navigator.userAgent) alike, so both render the
 * same page and nothing moves after hydration.
 */
export type Platform = 'ios' | 'android' | 'other';
/** Apps whose web views block opening other apps and downloads: visitors must go to a browser. */
export type InAppBrowser = 'wechat' | 'qq' | 'weibo' | 'none';

export interface ClientInfo {
  platform: Platform;
  inAppBrowser: InAppBrowser;
}

export const UNKNOWN_CLIENT: ClientInfo = { platform: 'other', inAppBrowser: 'none' };

export function detectClient(userAgent: string | undefined): ClientInfo {
  if (!userAgent) return UNKNOWN_CLIENT;
  const platform: Platform = /iPhone|iPad|iPod/i.test(userAgent)
    ? 'ios'
    : /Android/i.test(userAgent)
      ? 'android'
      : 'other';
  const inAppBrowser: InAppBrowser = /MicroMessenger/i.test(userAgent)
    ? 'wechat'
    : /Weibo/i.test(userAgent)
      ? 'weibo'
      : /\bQQ\/\d/i.test(userAgent)
        ? 'qq'
        : 'none';
  return { platform, inAppBrowser };
}
