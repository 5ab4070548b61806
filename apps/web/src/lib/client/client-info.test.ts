import { describe, expect, it } from 'vitest';
import { detectClient } from './client-info';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const IPHONE_WECHAT = `${IPHONE_SAFARI} MicroMessenger/8.0.49(0x18003129) NetType/WIFI Language/zh_CN`;
const ANDROID_QQ = `${ANDROID_CHROME} V1_AND_SQ_8.9.0_3530_YYB_D QQ/8.9.0.9280 NetType/WIFI`;
const ANDROID_QQ_BROWSER = `${ANDROID_CHROME} MQQBrowser/13.6`;
const IPHONE_WEIBO = `${IPHONE_SAFARI} Weibo (iPhone14,5__weibo__14.6.0__iphone__os17.5)`;
const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('detectClient', () => {
  it('tells the platform', () => {
    expect(detectClient(IPHONE_SAFARI)).toEqual({ platform: 'ios', inAppBrowser: 'none' });
    expect(detectClient(ANDROID_CHROME)).toEqual({ platform: 'android', inAppBrowser: 'none' });
    expect(detectClient(DESKTOP_CHROME)).toEqual({ platform: 'other', inAppBrowser: 'none' });
    expect(detectClient(undefined)).toEqual({ platform: 'other', inAppBrowser: 'none' });
  });

  it('recognises the in-app browsers of WeChat, QQ and Weibo, not the QQ Browser', () => {
    expect(detectClient(IPHONE_WECHAT).inAppBrowser).toBe('wechat');
    expect(detectClient(ANDROID_QQ).inAppBrowser).toBe('qq');
    expect(detectClient(IPHONE_WEIBO).inAppBrowser).toBe('weibo');
    expect(detectClient(ANDROID_QQ_BROWSER).inAppBrowser).toBe('none');
  });
});
