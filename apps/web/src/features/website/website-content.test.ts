import { describe, expect, it } from 'vitest';
import { download } from '@content/site.json';
import website from '@content/website.json';
import { fullPath, routeTable, type RouteEntry } from '../../config/route-table';
import { routePathById, storeOrder, telHref, withAppName } from './website-content';

describe('storeOrder', () => {
  it("puts the visitor's own platform first, iOS first elsewhere", () => {
    expect(storeOrder('ios')).toEqual(['ios', 'android']);
    expect(storeOrder('android')).toEqual(['android', 'ios']);
    expect(storeOrder('other')).toEqual(['ios', 'android']);
  });
});

describe('the content of the website', () => {
  it('has the download configuration other code relies on', () => {
    expect(download.ios.url).toBe(`https://apps.apple.com/cn/app/id${download.ios.appStoreId}`);
    expect(download.android.url).toMatch(/^https:\/\/.+\.apk$/);
  });

  it('links only to routes of the route table, the same ones in both languages', () => {
    for (const language of ['zh-CN', 'en'] as const) {
      for (const agreement of website[language].footer.agreements) {
        expect(routePathById(agreement.route), agreement.route).toBeDefined();
      }
    }
    const routes = (language: 'zh-CN' | 'en') =>
      website[language].footer.agreements.map((agreement) => agreement.route);
    expect(routes('en')).toEqual(routes('zh-CN'));
    expect(routes('zh-CN')).toEqual(
      expect.arrayContaining([
        'user-agreement-20251015',
        'privacy-policy-20261128',
        'vip-agreement',
        'exposure-agreement',
        'user-info-list',
        'third-party-share-list',
      ]),
    );
  });

  it('lists the same features, screens and sections in both languages', () => {
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);
    expect(ids(website.en.features.items)).toEqual(ids(website['zh-CN'].features.items));
    expect(ids(website.en.screens.items)).toEqual(ids(website['zh-CN'].screens.items));
    expect(website.en.header.nav.map((item) => item.target)).toEqual(
      website['zh-CN'].header.nav.map((item) => item.target),
    );
    expect(website.en.footer.copyrightYear).toBe(website['zh-CN'].footer.copyrightYear);
  });
});

describe('routePathById', () => {
  it('gives the path under the base path, nothing for unknown ids or the not-found route', () => {
    const entry = (routeTable as readonly RouteEntry[]).find(
      (route) => route.id === 'privacy-policy-20251015',
    );
    expect(entry && fullPath(entry)).toBe('/anime_merch_web/agreement/yiSi/YiSiAgreement20251015');
    expect(routePathById('privacy-policy-20251015')).toBe('/agreement/yiSi/YiSiAgreement20251015');
    expect(routePathById('no-such-route')).toBeUndefined();
    expect(routePathById('not-found')).toBeUndefined();
  });
});

describe('withAppName and telHref', () => {
  it("fills in the in-app browser's name", () => {
    const names = website['zh-CN'].download.inAppNames;
    expect(withAppName('你正在{app}内浏览，{app}内无法下载', 'wechat', names)).toBe(
      '你正在微信内浏览，微信内无法下载',
    );
    expect(withAppName('{app}', 'weibo', names)).toBe('微博');
  });

  it('dials the digits of the phone number', () => {
    expect(telHref('0571-8888 6666')).toBe('tel:057188886666');
  });
});
