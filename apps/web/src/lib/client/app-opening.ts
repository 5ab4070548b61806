import type { ClientInfo, InAppBrowser } from '@guquan/contract/client-info';

/**
 * What a browser lets a page do to reach the app (docs/decisions/0012-wechat.md, after callapp-lib's notes in
 * RESEARCH.md): whether a Universal Link (iOS) opens the app, whether a custom scheme (or an
 * Android intent) does, and whether a store link works (the App Store page on iOS, our APK on
 * Android). Where none does, the visitor needs the "open in browser" guide.
 */
export interface AppOpening {
  universalLinks: boolean;
  schemes: boolean;
  stores: boolean;
}

const EVERYTHING: AppOpening = { universalLinks: true, schemes: true, stores: true };
const NOTHING: AppOpening = { universalLinks: false, schemes: false, stores: false };
/** QQ's web views and QQ Browser on iOS keep Universal Links, but a scheme asks to open the app. */
const SCHEMES_AND_STORES: AppOpening = { universalLinks: false, schemes: true, stores: true };

type PerPlatform = Readonly<{ ios: AppOpening; android: AppOpening }>;

const OPENING: Readonly<Record<InAppBrowser, PerPlatform>> = {
  none: { ios: EVERYTHING, android: EVERYTHING },
  // Opens nothing without its open tag (wx-open-launch-app) and blocks APK downloads.
  wechat: { ios: NOTHING, android: NOTHING },
  // iOS: links to the App Store still work; Android: neither schemes nor downloads.
  weibo: { ios: { ...NOTHING, stores: true }, android: NOTHING },
  qq: { ios: SCHEMES_AND_STORES, android: SCHEMES_AND_STORES },
  qqbrowser: { ios: SCHEMES_AND_STORES, android: SCHEMES_AND_STORES },
  // iOS as QQ; on Android Qzone neither opens schemes nor downloads.
  qzone: { ios: SCHEMES_AND_STORES, android: NOTHING },
  // Each opens only the apps on its own list, and no downloads.
  alipay: { ios: NOTHING, android: NOTHING },
  dingtalk: { ios: NOTHING, android: NOTHING },
  douyin: { ios: NOTHING, android: NOTHING },
};

/** How the visitor's browser treats app and store links; other platforms as Android. */
export function appOpening({ platform, inAppBrowser }: ClientInfo): AppOpening {
  const opening = OPENING[inAppBrowser];
  return platform === 'ios' ? opening.ios : opening.android;
}

/** Whether store links must give way to the "open in browser" guide. */
export function needsBrowserForStores(client: ClientInfo): boolean {
  return !appOpening(client).stores;
}

/**
 * Whether the app can be on this device at all: it is made for iOS and Android, so a desktop
 * browser's "open in app" leads to the download section, and the page offers the phone a QR code.
 */
export function canHaveApp(client: ClientInfo): boolean {
  return client.platform !== 'other';
}
