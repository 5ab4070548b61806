import { detectClient, type InAppBrowser } from './client-info.ts';
import type { ShareChannel } from './funnel-events.ts';

/**
 * The channel a visitor came through, for the share funnel's counts (docs/decisions/0018-share-funnel-and-operators-listener.md): the app whose
 * web view shows the page (the browser table of client-info.ts), else Safari, Chrome or another
 * browser. The server asks it of the request's User-Agent and keeps only the answer.
 */
const IN_APP_CHANNELS: Readonly<Record<Exclude<InAppBrowser, 'none'>, ShareChannel>> = {
  wechat: 'wechat',
  qq: 'qq',
  qzone: 'qq',
  weibo: 'weibo',
  alipay: 'other_in_app',
  dingtalk: 'other_in_app',
  douyin: 'other_in_app',
  // A browser of its own, not a web view.
  qqbrowser: 'other',
};

/** Browsers built on Chrome or Safari that name themselves too: they are not Chrome or Safari. */
const OTHER_BROWSERS =
  /\b(?:Edg|EdgA|EdgiOS|OPR|OPT|OPiOS|SamsungBrowser|UCBrowser|UCWEB|HuaweiBrowser|HeyTapBrowser|VivoBrowser|MiuiBrowser|XiaoMi|Quark|baiduboxapp|baidubrowser|SogouMobileBrowser|QihooBrowser|YaBrowser|Firefox|FxiOS)\//i;

export function shareChannel(userAgent: string | undefined): ShareChannel {
  if (!userAgent) return 'other';
  const { platform, inAppBrowser } = detectClient(userAgent);
  if (inAppBrowser !== 'none') return IN_APP_CHANNELS[inAppBrowser];
  // Another app's web view: Android's says `; wv)`, iOS's lacks Safari's own `Safari/` token.
  if (/;\s*wv\)/.test(userAgent)) return 'other_in_app';
  if (OTHER_BROWSERS.test(userAgent)) return 'other';
  if (/\bCriOS\//.test(userAgent)) return 'chrome';
  if (platform === 'ios') return /\bSafari\//.test(userAgent) ? 'safari' : 'other_in_app';
  if (/\bChrome\//.test(userAgent)) return 'chrome';
  if (/\bVersion\/[\d.]+.*\bSafari\//.test(userAgent)) return 'safari';
  return 'other';
}
