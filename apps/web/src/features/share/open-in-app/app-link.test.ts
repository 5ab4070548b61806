import { describe, expect, it } from 'vitest';
import { appPath, schemeLink, universalLink } from './app-link';
import type { AppLinkConfig } from './launch-plan';
import { isAndroidChrome, launchPlan, storeDestination, type StoreUrls } from './launch-plan';
import { detectClient } from '@guquan/contract/client-info';
import { REAL_USER_AGENTS } from '../../../../../../tests/support/real-user-agents';

const config: AppLinkConfig = { scheme: 'guquan', fallbackDelayMs: 2000 };
const LINK_ORIGIN = 'https://link.guquan.example';
const stores: StoreUrls = {
  ios: 'https://apps.apple.com/cn/app/id6480000000',
  android: 'https://www.guquan.example/download/guquan-latest.apk',
};
const goods = { kind: 'goods', id: 'goodsAAAAAAAAAA1', image: 2 } as const;

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  androidWebView:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.0.0 Mobile Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  desktop:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

describe('app links', () => {
  it('name the item, and the image for goods', () => {
    expect(appPath(goods)).toBe('goods/goodsAAAAAAAAAA1?image=2');
    expect(appPath({ kind: 'cabinet', id: 'cabinetAAAAAAAA1' })).toBe('cabinet/cabinetAAAAAAAA1');
    expect(appPath({ kind: 'note', id: 'noteAAAAAAAAAAA1' })).toBe('note/noteAAAAAAAAAAA1');
    expect(appPath(null)).toBe('');
  });

  it('a Universal Link (App Link) on the link domain the server names', () => {
    expect(universalLink(LINK_ORIGIN, goods)).toBe(
      'https://link.guquan.example/goods/goodsAAAAAAAAAA1?image=2',
    );
    expect(universalLink('http://127.0.0.1:8081', null)).toBe('http://127.0.0.1:8081/');
  });

  it('the custom scheme', () => {
    expect(schemeLink(goods, config.scheme)).toBe('guquan://goods/goodsAAAAAAAAAA1?image=2');
  });

  it('get the app: the platform’s store, the website elsewhere, the guide where stores are blocked', () => {
    expect(storeDestination({ platform: 'ios', inAppBrowser: 'none' }, stores)).toEqual({
      type: 'url',
      href: stores.ios,
    });
    expect(storeDestination({ platform: 'android', inAppBrowser: 'qq' }, stores)).toEqual({
      type: 'url',
      href: stores.android,
    });
    expect(storeDestination({ platform: 'other', inAppBrowser: 'none' }, stores)).toEqual({
      type: 'route',
      to: '/website#download',
    });
    expect(storeDestination({ platform: 'android', inAppBrowser: 'wechat' }, stores)).toBe('guide');
  });

  it('tells Chrome on Android from web views and other browsers', () => {
    expect(isAndroidChrome(UA.androidChrome)).toBe(true);
    expect(isAndroidChrome(UA.androidWebView)).toBe(false);
    expect(isAndroidChrome(UA.samsung)).toBe(false);
    expect(isAndroidChrome(UA.desktop)).toBe(false);
    expect(isAndroidChrome(UA.iphoneSafari)).toBe(false);
  });
});

describe('launchPlan', () => {
  it('iOS: the Universal Link, whose link domain is the fallback (no timer)', () => {
    expect(
      launchPlan(
        goods,
        { platform: 'ios', inAppBrowser: 'none' },
        UA.iphoneSafari,
        LINK_ORIGIN,
        config,
        stores,
      ),
    ).toEqual({ type: 'link', href: 'https://link.guquan.example/goods/goodsAAAAAAAAAA1?image=2' });
  });

  it('Android Chrome: the App Link; other Android browsers: the scheme, then the APK', () => {
    const android = { platform: 'android', inAppBrowser: 'none' } as const;
    expect(launchPlan(goods, android, UA.androidChrome, LINK_ORIGIN, config, stores)).toEqual({
      type: 'link',
      href: 'https://link.guquan.example/goods/goodsAAAAAAAAAA1?image=2',
    });
    expect(launchPlan(goods, android, UA.samsung, LINK_ORIGIN, config, stores)).toEqual({
      type: 'launch',
      href: 'guquan://goods/goodsAAAAAAAAAA1?image=2',
      fallback: { type: 'url', href: stores.android },
      fallbackDelayMs: 2000,
    });
  });

  it('other platforms: the website’s download section', () => {
    expect(
      launchPlan(
        goods,
        { platform: 'other', inAppBrowser: 'none' },
        UA.desktop,
        LINK_ORIGIN,
        config,
        stores,
      ),
    ).toEqual({ type: 'download', destination: { type: 'route', to: '/website#download' } });
  });

  // What each browser really allows (lib/client/app-opening.ts), over real User-Agents.
  const expected: Readonly<Record<string, 'universal' | 'scheme' | 'store' | 'guide'>> = {
    'Safari on iPhone': 'universal',
    'Chrome on Android': 'universal',
    'WeChat on iPhone': 'guide',
    'WeChat on Android (XWEB)': 'guide',
    'WeChat on Android (X5, also says MQQBrowser)': 'guide',
    'QQ on iPhone': 'scheme',
    'QQ on Android (X5, also says MQQBrowser)': 'scheme',
    'QQ Browser on iPhone': 'scheme',
    'QQ Browser on Android': 'scheme',
    'Qzone on iPhone': 'scheme',
    'Qzone on Android': 'guide',
    'Weibo on iPhone': 'store',
    'Weibo on Android': 'guide',
    'Alipay on iPhone': 'guide',
    'Alipay on Android': 'guide',
    'DingTalk on iPhone': 'guide',
    'DingTalk on Android': 'guide',
    'Douyin on iPhone': 'guide',
    'Douyin on Android': 'guide',
  };

  it.each(REAL_USER_AGENTS)('$name', ({ name, userAgent }) => {
    const plan = launchPlan(goods, detectClient(userAgent), userAgent, LINK_ORIGIN, config, stores);
    const store = /iPhone/.test(userAgent) ? stores.ios : stores.android;
    switch (expected[name]) {
      case 'guide':
        expect(plan).toEqual({ type: 'guide' });
        break;
      case 'store':
        expect(plan).toEqual({ type: 'download', destination: { type: 'url', href: store } });
        break;
      case 'universal':
        expect(plan).toEqual({
          type: 'link',
          href: 'https://link.guquan.example/goods/goodsAAAAAAAAAA1?image=2',
        });
        break;
      case 'scheme':
        expect(plan).toMatchObject({
          type: 'launch',
          href: 'guquan://goods/goodsAAAAAAAAAA1?image=2',
          fallback: { type: 'url', href: store },
        });
        break;
      default:
        throw new Error(`no expectation for ${name}`);
    }
  });

  it('on a computer inside an app that blocks stores: the guide', () => {
    expect(
      launchPlan(
        goods,
        { platform: 'other', inAppBrowser: 'wechat' },
        '',
        LINK_ORIGIN,
        config,
        stores,
      ),
    ).toEqual({ type: 'guide' });
  });
});
