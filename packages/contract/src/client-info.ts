/**
 * What the page needs to know about the visitor's device, read from the User-Agent — by the server
 * (from the request header) and by the browser (navigator.userAgent) alike, so both render the
 * same page and nothing moves after hydration.
 */
export type Platform = 'ios' | 'android' | 'other';

/**
 * The app whose web view shows the page (or QQ Browser, a browser of its own that keeps Universal
 * Links), when it treats links to apps and stores differently from a plain browser. How each one
 * does is in the web app's lib/client/app-opening.ts.
 */
export type InAppBrowser =
  'wechat' | 'qq' | 'qqbrowser' | 'qzone' | 'weibo' | 'alipay' | 'dingtalk' | 'douyin' | 'none';

export interface ClientInfo {
  platform: Platform;
  inAppBrowser: InAppBrowser;
}

export const UNKNOWN_CLIENT: ClientInfo = { platform: 'other', inAppBrowser: 'none' };

/**
 * The tokens each app writes into its web view's User-Agent, most specific first: WeChat and QQ on
 * Android run on Tencent's X5 engine and also say `MQQBrowser/`, Qzone's pages may say `QQ/`, and
 * Alipay and DingTalk both say `AliApp(…)`, so the order decides.
 */
const IN_APP_TOKENS: readonly (readonly [Exclude<InAppBrowser, 'none'>, RegExp])[] = [
  ['wechat', /MicroMessenger\//i],
  ['weibo', /\bWeibo\b|__weibo__/i],
  ['alipay', /AlipayClient\/|AliApp\(AP\//i],
  ['dingtalk', /DingTalk\//i],
  ['douyin', /\baweme(?:_lite)?[_/]\d|AppName\/aweme/i],
  ['qzone', /\bQzone\//i],
  ['qq', /\bQQ\/\d/i],
  ['qqbrowser', /\bM?QQBrowser\/\d/i],
];

export function detectClient(userAgent: string | undefined): ClientInfo {
  if (!userAgent) return UNKNOWN_CLIENT;
  const platform: Platform = /iPhone|iPad|iPod/i.test(userAgent)
    ? 'ios'
    : /Android/i.test(userAgent)
      ? 'android'
      : 'other';
  const found = IN_APP_TOKENS.find(([, token]) => token.test(userAgent));
  return { platform, inAppBrowser: found ? found[0] : 'none' };
}

/**
 * One User-Agent per class of device (platform × in-app browser): the pages built ahead are
 * rendered once per class, and the server looks them up by the same class (clientClass).
 */
export function clientClassSamples(): string[] {
  const platforms = ['', 'iPhone', 'Android'];
  const apps = [
    '',
    'MicroMessenger/8.0',
    'Weibo',
    'AlipayClient/10.5',
    'DingTalk/7.6',
    'aweme_33.0',
    'Qzone/V1_IPH_QZ_8.9',
    'QQ/9.0',
    'MQQBrowser/13.6',
  ];
  return platforms.flatMap((platform) => apps.map((app) => `${platform} ${app}`.trim()));
}
