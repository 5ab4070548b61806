import { describe, expect, it } from 'vitest';
import { routeTable, type RouteEntry } from './route-table';
import { indexedPagePaths, searchHeadOf } from './search-indexing';

const routes = routeTable as readonly RouteEntry[];

describe('search indexing', () => {
  it('keeps every route out of search engines unless its kind is for them', () => {
    for (const entry of routes) {
      const head = searchHeadOf(entry, 'en');
      if (entry.kind === 'share') expect(head, entry.path).toEqual({});
      else if (entry.kind === 'in-app' || entry.kind === 'not-found')
        expect(head, entry.path).toEqual({ noindex: true });
      else expect(head.noindex === true || head.canonicalPath !== undefined, entry.path).toBe(true);
    }
  });

  it('indexes the website and each legal document once, at its current version', () => {
    expect(indexedPagePaths()).toEqual([
      '/anime_merch_web/website',
      '/anime_merch_web/agreement/vip/VipAgreement',
      '/anime_merch_web/agreement/user/UserAgreement20251015',
      '/anime_merch_web/agreement/yiSi/YiSiAgreement20261128',
      '/anime_merch_web/agreement/ExposureAgreement',
      '/anime_merch_web/agreement/exposureNote/ExposureNoteAgreement',
      '/anime_merch_web/agreement/userInfoList',
      '/anime_merch_web/agreement/thirdPartyShareList',
    ]);
  });

  it('gives a page its address per language and x-default', () => {
    const website = routes.find((entry) => entry.id === 'website');
    expect(website && searchHeadOf(website, 'en')).toEqual({
      canonicalPath: '/anime_merch_web/website?lang=en',
      alternates: [
        { hreflang: 'zh-CN', path: '/anime_merch_web/website' },
        { hreflang: 'en', path: '/anime_merch_web/website?lang=en' },
        { hreflang: 'x-default', path: '/anime_merch_web/website' },
      ],
    });
  });
});
