import type { FastifyInstance } from 'fastify';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import site from '../../../../content/site.json' with { type: 'json' };
import { routeTable, type RouteEntry } from '../../../web/src/config/route-table.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { demoPageQuery } from '../demo/seed/demo-pages.ts';
import { buildTestApp, loadTestWebBuild } from '../test-support/test-app.ts';

const ORIGIN = 'https://www.guquan.example';
/** The app's link domain: the server's setting, which the banner's link follows. */
const LINK_ORIGIN = 'https://link.guquan.example';
const BASE = '/anime_merch_web';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ PUBLIC_ORIGIN: ORIGIN, LINK_ORIGIN });
});
afterAll(async () => {
  await app.close();
});

const routes = routeTable as readonly RouteEntry[];
const pageUrl = (entry: RouteEntry) => {
  const query = demoPageQuery(entry.path);
  return `${BASE}${entry.path}${query ? `?${query}` : ''}`;
};

/** What robots.txt says of a path: the longest matching rule wins, Allow on a tie (RFC 9309). */
function robotsAllow(robots: string, path: string): boolean {
  let best: { length: number; allow: boolean } | undefined;
  for (const line of robots.split('\n')) {
    const rule = /^(Allow|Disallow):\s*(\S*)$/.exec(line);
    if (!rule?.[2] || !path.startsWith(rule[2])) continue;
    const candidate = { length: rule[2].length, allow: rule[1] === 'Allow' };
    if (
      !best ||
      candidate.length > best.length ||
      (candidate.length === best.length && candidate.allow)
    )
      best = candidate;
  }
  return best?.allow ?? true;
}

function headOf(html: string): string {
  return html.slice(0, html.indexOf('</head>'));
}
const robotsMeta = (html: string) =>
  /<meta name="robots" content="([^"]*)">/.exec(headOf(html))?.[1];
const canonicalOf = (html: string) =>
  /<link rel="canonical" href="([^"]*)">/.exec(headOf(html))?.[1];
const alternatesOf = (html: string): Record<string, string> =>
  Object.fromEntries(
    [...headOf(html).matchAll(/<link rel="alternate" hreflang="([^"]*)" href="([^"]*)">/g)].map(
      (match) => [match[1] ?? '', match[2] ?? ''],
    ),
  );
const bannerOf = (html: string) =>
  /<meta name="apple-itunes-app" content="([^"]*)">/.exec(headOf(html))?.[1];

describe('robots.txt', () => {
  it('is at the site root, as plain text, naming the sitemap', async () => {
    const res = await app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(/^User-agent: \*$/m);
    expect(res.body).toMatch(new RegExp(`^Sitemap: ${ORIGIN}${BASE}/sitemap\\.xml$`, 'm'));
  });

  it('lets crawlers read the website, the legal and share pages, and refuses in-app pages and the API', async () => {
    const robots = (await app.inject({ url: '/robots.txt' })).body;
    for (const entry of routes.filter((route) => route.path !== '*')) {
      const allowed = entry.kind !== 'in-app';
      expect(robotsAllow(robots, `${BASE}${entry.path}`), `${entry.kind} ${entry.path}`).toBe(
        allowed,
      );
    }
    expect(robots).toMatch(/^Disallow: \/anime_merch_web\/APPPage\/$/m);
    expect(robotsAllow(robots, `${BASE}/api/v1/goods/${DEMO_IDS.goods.gallery}`)).toBe(false);
    expect(robotsAllow(robots, `${BASE}/sitemap.xml`)).toBe(true);
    expect(robotsAllow(robots, `${BASE}/assets/index-abc.js`)).toBe(true);
    expect(robotsAllow(robots, `${BASE}/media/x/750.webp`)).toBe(true);
    expect(robotsAllow(robots, `${BASE}/pictures/goods/x/card.en.v.jpg`)).toBe(true);
    expect(robotsAllow(robots, `${BASE}/pictures/neutral/card.en.v.jpg`)).toBe(true);
    expect(robotsAllow(robots, `${BASE}/somewhere/new`)).toBe(false);
  });
});

describe('the sitemap', () => {
  it('is valid XML listing the website and each legal document’s current version, in both languages', async () => {
    const res = await app.inject({ url: `${BASE}/sitemap.xml` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const { document } = new JSDOM(res.body, { contentType: 'application/xml' }).window;
    expect(document.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(document.documentElement.namespaceURI).toBe(
      'http://www.sitemaps.org/schemas/sitemap/0.9',
    );
    const urls = [...document.getElementsByTagName('url')];
    const locs = urls.map((url) => url.getElementsByTagName('loc')[0]?.textContent);
    const indexed = [
      '/website',
      '/agreement/vip/VipAgreement',
      '/agreement/user/UserAgreement20251015',
      '/agreement/yiSi/YiSiAgreement20261128',
      '/agreement/ExposureAgreement',
      '/agreement/exposureNote/ExposureNoteAgreement',
      '/agreement/userInfoList',
      '/agreement/thirdPartyShareList',
    ];
    expect(locs.sort()).toEqual(
      indexed
        .flatMap((path) => [`${ORIGIN}${BASE}${path}`, `${ORIGIN}${BASE}${path}?lang=en`])
        .sort(),
    );
    for (const url of urls) {
      const links = [...url.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'link')];
      expect(links.map((link) => link.getAttribute('hreflang'))).toEqual([
        'zh-CN',
        'en',
        'x-default',
      ]);
      expect(links.map((link) => link.getAttribute('href'))).toContain(
        url.getElementsByTagName('loc')[0]?.textContent,
      );
    }
  });

  it('is reached from outside the base path too', async () => {
    const res = await app.inject({ url: '/sitemap.xml' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${BASE}/sitemap.xml`);
  });
});

describe('canonical and language alternates', () => {
  it('name the website in each language, as the server serves it', async () => {
    const zh = await app.inject({ url: `${BASE}/website?from=timeline` });
    expect(canonicalOf(zh.body)).toBe(`${ORIGIN}${BASE}/website`);
    const alternates = alternatesOf(zh.body);
    expect(alternates).toEqual({
      'zh-CN': `${ORIGIN}${BASE}/website`,
      en: `${ORIGIN}${BASE}/website?lang=en`,
      'x-default': `${ORIGIN}${BASE}/website`,
    });
    const byHeader = await app.inject({
      url: `${BASE}/website`,
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(canonicalOf(byHeader.body)).toBe(`${ORIGIN}${BASE}/website?lang=en`);
    // Each alternate, fetched as a crawler does (no Accept-Language), is in its language and
    // names itself canonical.
    for (const [hreflang, href] of Object.entries(alternates)) {
      const res = await app.inject({ url: href.slice(ORIGIN.length) });
      expect(res.statusCode).toBe(200);
      const lang = /<html lang="([^"]*)"/.exec(res.body)?.[1];
      expect(lang).toBe(hreflang === 'x-default' ? 'zh-CN' : hreflang);
      expect(canonicalOf(res.body)).toBe(href);
    }
  });

  it('name a legal document’s current version at its first route, and keep older versions out', async () => {
    for (const path of ['/agreement/ExposureAgreement', '/agreement/exposure/ExposureAgreement']) {
      const res = await app.inject({ url: `${BASE}${path}?lang=en` });
      expect(canonicalOf(res.body)).toBe(`${ORIGIN}${BASE}/agreement/ExposureAgreement?lang=en`);
      expect(alternatesOf(res.body)['x-default']).toBe(
        `${ORIGIN}${BASE}/agreement/ExposureAgreement`,
      );
      expect(robotsMeta(res.body)).toBeUndefined();
      expect(res.headers['x-robots-tag']).toBeUndefined();
    }
    const current = await app.inject({ url: `${BASE}/agreement/yiSi/YiSiAgreement20261128` });
    expect(canonicalOf(current.body)).toBe(`${ORIGIN}${BASE}/agreement/yiSi/YiSiAgreement20261128`);
    for (const path of [
      '/agreement/yiSi/YiSiAgreement',
      '/agreement/yiSi/YiSiAgreement20251015',
      '/agreement/yiSi/YiSiAgreement20261124',
      '/agreement/yiSi/YiSiAgreement20261126',
      '/agreement/yiSi/YiSiAgreement20261127',
      '/agreement/user/UserAgreement',
    ]) {
      const old = await app.inject({ url: `${BASE}${path}` });
      expect(old.statusCode).toBe(200);
      expect(robotsMeta(old.body)).toBe('noindex, nofollow');
      expect(old.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(canonicalOf(old.body)).toBeUndefined();
      expect(alternatesOf(old.body)).toEqual({});
    }
  });

  it('carry the configured origin in the pages built ahead, never the build’s stand-in', async () => {
    const build = await loadTestWebBuild();
    for (const path of build.renderer.staticPagePaths()) {
      const res = await app.inject({ url: path });
      expect(res.body).not.toContain('public-origin.invalid');
      for (const href of [canonicalOf(res.body), ...Object.values(alternatesOf(res.body))])
        if (href !== undefined) expect(href.startsWith(`${ORIGIN}/`), href).toBe(true);
    }
  });
});

describe('noindex', () => {
  const inApp = routes.filter((entry) => entry.kind === 'in-app');

  it('covers the in-app pages of the route table', () => {
    expect(inApp.map((entry) => entry.path)).toEqual([
      '/APPPage/cashDesign',
      '/APPPage/iosVipBuy',
      '/APPPage/logOut',
    ]);
  });

  it.each(inApp)('keeps $path out of search engines, in the HTML and the header', async (entry) => {
    for (const lang of ['zh-CN', 'en']) {
      const res = await app.inject({ url: `${pageUrl(entry)}?lang=${lang}` });
      expect(res.statusCode).toBe(200);
      expect(robotsMeta(res.body)).toBe('noindex, nofollow');
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(canonicalOf(res.body)).toBeUndefined();
    }
  });

  it('keeps the not-found page out too', async () => {
    const res = await app.inject({ url: `${BASE}/no/such/page` });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
  });

  it('lets a shared item be indexed, and keeps a private or missing one out', async () => {
    const shared = await app.inject({
      url: `${BASE}/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}`,
    });
    expect(shared.statusCode).toBe(200);
    expect(robotsMeta(shared.body)).toBeUndefined();
    expect(shared.headers['x-robots-tag']).toBeUndefined();
    const hidden = await app.inject({
      url: `${BASE}/AppShare/goodsShare?id=${DEMO_IDS.goods.private}`,
    });
    expect(hidden.statusCode).toBe(403);
    expect(robotsMeta(hidden.body)).toBe('noindex, nofollow');
    expect(hidden.headers['x-robots-tag']).toBe('noindex, nofollow');
  });
});

describe('the Smart App Banner', () => {
  const appId = site.download.ios.appStoreId;
  const link = LINK_ORIGIN;

  it('opens the app on the same item as the share page’s "open in app"', async () => {
    const goods = await app.inject({
      url: `${BASE}/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&lang=en`,
    });
    expect(bannerOf(goods.body)).toBe(
      `app-id=${appId}, app-argument=${link}/goods/${DEMO_IDS.goods.gallery}?image=0`,
    );
    const cabinet = await app.inject({
      url: `${BASE}/AppShare/cabinetShare?id=${DEMO_IDS.cabinets.main}`,
    });
    expect(bannerOf(cabinet.body)).toBe(
      `app-id=${appId}, app-argument=${link}/cabinet/${DEMO_IDS.cabinets.main}`,
    );
    const note = await app.inject({ url: `${BASE}/AppShare/notesShare?id=${DEMO_IDS.notes.rich}` });
    expect(bannerOf(note.body)).toBe(
      `app-id=${appId}, app-argument=${link}/note/${DEMO_IDS.notes.rich}`,
    );
  });

  it('opens the app on the item even when the page cannot show it, and on its start without an id', async () => {
    const hidden = await app.inject({
      url: `${BASE}/AppShare/goodsShare?id=${DEMO_IDS.goods.private}`,
    });
    expect(bannerOf(hidden.body)).toBe(
      `app-id=${appId}, app-argument=${link}/goods/${DEMO_IDS.goods.private}?image=0`,
    );
    const noId = await app.inject({ url: `${BASE}/AppShare/notesShare` });
    expect(bannerOf(noId.body)).toBe(`app-id=${appId}, app-argument=${link}/`);
  });

  it('is on share pages only', async () => {
    for (const url of [
      `${BASE}/website`,
      `${BASE}/APPPage/logOut`,
      `${BASE}/agreement/userInfoList`,
    ])
      expect(bannerOf((await app.inject({ url })).body), url).toBeUndefined();
  });
});
