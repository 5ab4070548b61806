import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import type { AppLinkEvent } from './app-link-events.ts';

/**
 * The app's link domain (docs/decisions/0017-app-links-and-handoffs.md): another host name of the same server. Here the site is at
 * PUBLIC_ORIGIN (http://127.0.0.1:8080, Host 127.0.0.1:8080) and the link domain at
 * http://link.test (Host link.test), as a test may set it.
 */
const SITE = 'http://127.0.0.1:8080';
const SITE_HOST = '127.0.0.1:8080';
const LINK = 'link.test';
const AASA = '/.well-known/apple-app-site-association';
const ASSET_LINKS = '/.well-known/assetlinks.json';
const GOODS = DEMO_IDS.goods.gallery;
const FINGERPRINT_A = 'aa'.repeat(32);
const FINGERPRINT_B = Array.from({ length: 32 }, () => 'B0').join(':');

let app: FastifyInstance;
const events: [AppLinkEvent, string | null][] = [];

beforeAll(async () => {
  app = await buildTestApp(
    {
      PUBLIC_ORIGIN: SITE,
      LINK_ORIGIN: `http://${LINK}`,
      APPLE_TEAM_ID: 'ABCDE12345',
      APPLE_BUNDLE_ID: 'com.guquan.app',
      ANDROID_CERT_FINGERPRINTS: `${FINGERPRINT_A}, ${FINGERPRINT_B}`,
    },
    {
      countAppLinkEvent: (event, kind) => {
        events.push([event, kind]);
        return Promise.resolve();
      },
    },
  );
});
afterAll(async () => {
  await app.close();
});

function onLink(
  url: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' | 'POST' = 'GET',
) {
  return app.inject({ method, url, headers: { host: LINK, ...headers } });
}

interface Component {
  '/': string;
  exclude?: boolean;
}

describe('apple-app-site-association', () => {
  it('is JSON, never a redirect, small, cached an hour, and names the app and the paths it opens', async () => {
    const response = await onLink(AASA);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.rawPayload.length).toBeLessThan(128 * 1024);
    const body = response.json<{
      applinks: { details: { appIDs: string[]; components: Component[] }[] };
    }>();
    expect(Object.keys(body)).toEqual(['applinks']);
    const [details, ...others] = body.applinks.details;
    expect(others).toEqual([]);
    expect(details?.appIDs).toEqual(['ABCDE12345.com.guquan.app']);
    const components = details?.components ?? [];
    // The first matching component wins: every exclusion comes before any path the app claims.
    const firstClaim = components.findIndex((component) => !component.exclude);
    expect(components.slice(firstClaim).every((component) => !component.exclude)).toBe(true);
    expect(components.slice(firstClaim).map((component) => component['/'])).toEqual([
      '/goods/*',
      '/cabinet/*',
      '/note/*',
    ]);
    expect(components.slice(0, firstClaim).map((component) => component['/'])).toEqual(
      expect.arrayContaining(['/goods/', '/goods/*/*', '/note/*/*']),
    );
  });

  it('answers HEAD too, and a Host that spells out the default port', async () => {
    expect((await onLink(AASA, {}, 'HEAD')).statusCode).toBe(200);
    expect((await onLink(AASA, { host: `${LINK}:80` })).statusCode).toBe(200);
    expect((await onLink(AASA, { host: 'LINK.TEST' })).statusCode).toBe(200);
  });
});

describe('assetlinks.json', () => {
  it('is the statement list: the package and the fingerprints in upper-case colon form', async () => {
    const response = await onLink(ASSET_LINKS);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.location).toBeUndefined();
    expect(response.json()).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: {
          namespace: 'android_app',
          package_name: 'com.guquan.app',
          sha256_cert_fingerprints: [
            Array.from({ length: 32 }, () => 'AA').join(':'),
            FINGERPRINT_B,
          ],
        },
      },
    ]);
  });
});

describe('the site’s own host', () => {
  it('serves neither file: a link to the site must never open the app', async () => {
    for (const path of [AASA, ASSET_LINKS]) {
      const response = await app.inject({ url: path, headers: { host: SITE_HOST } });
      expect(response.statusCode).toBe(404);
      expect(response.headers.location).toBeUndefined();
    }
  });

  it('keeps serving the site', async () => {
    const response = await app.inject({
      url: `${BASE_PATH}/website`,
      headers: { host: SITE_HOST },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('a link the app did not open', () => {
  it('goes to the same goods’ share page, at its cacheable address, the app missing, the image kept', async () => {
    events.length = 0;
    const response = await onLink(`/goods/${GOODS}?image=2`, {
      'accept-language': 'en-GB,en;q=0.9',
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(
      `${SITE}${BASE_PATH}/AppShare/goodsShare?id=${GOODS}&lang=en&app=missing&image=2`,
    );
    expect(response.headers['x-robots-tag']).toMatch(/noindex/);
    expect(response.headers['cache-control']).toMatch(/^private/);
    expect(response.headers.vary).toContain('Accept-Language');
    expect(events).toEqual([['link_fallback', 'goods']]);
  });

  it('keeps cabinets and notes as they are, in the visitor’s language (Chinese by default)', async () => {
    const cabinet = await onLink(`/cabinet/${DEMO_IDS.cabinets.main}`);
    expect(cabinet.headers.location).toBe(
      `${SITE}${BASE_PATH}/AppShare/cabinetShare?id=${DEMO_IDS.cabinets.main}&lang=zh-CN&app=missing`,
    );
    const note = await onLink(`/note/${DEMO_IDS.notes.rich}?image=3`);
    expect(note.headers.location).toBe(
      `${SITE}${BASE_PATH}/AppShare/notesShare?id=${DEMO_IDS.notes.rich}&lang=zh-CN&app=missing`,
    );
  });

  it('drops an image that is not one, and sends the app’s start to the website’s download section', async () => {
    expect((await onLink(`/goods/${GOODS}?image=-1`)).headers.location).toBe(
      `${SITE}${BASE_PATH}/AppShare/goodsShare?id=${GOODS}&lang=zh-CN&app=missing`,
    );
    const root = await onLink('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe(`${SITE}${BASE_PATH}/website?lang=zh-CN#download`);
  });

  it('a malformed id reaches the share page’s own 400 state', async () => {
    const response = await onLink('/goods/not%20an%20id');
    const location = response.headers.location ?? '';
    expect(location).toBe(
      `${SITE}${BASE_PATH}/AppShare/goodsShare?id=not+an+id&lang=zh-CN&app=missing`,
    );
    const page = await app.inject({
      url: location.slice(SITE.length),
      headers: { host: SITE_HOST },
    });
    expect(page.statusCode).toBe(400);
  });

  it('sends on an id that is not a public id (tabs, 8 kB), and counts none of them', async () => {
    events.length = 0;
    for (const id of [
      `${GOODS}%09x%09x`,
      `${GOODS}%09wechat%09handoff_claimed`,
      'x'.repeat(8_000),
    ]) {
      const response = await onLink(`/goods/${id}`);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toMatch(/\/AppShare\/goodsShare\?id=/);
    }
    expect(events).toEqual([]);
  });

  it('lands on a share page that offers the app first, still shows the item, and may be cached', async () => {
    const location = (await onLink(`/goods/${GOODS}?image=1`)).headers.location ?? '';
    const page = await app.inject({
      url: location.slice(SITE.length),
      headers: { host: SITE_HOST },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toMatch(/^public, .*s-maxage=/);
    expect(page.body).toContain('下载谷圈 App');
    expect(page.body).toContain(`href="${BASE_PATH}/website?lang=zh-CN#download"`);
    expect(page.body).toContain('<h1');
    // The plain page is another version: "open" first.
    const plain = await app.inject({
      url: `${BASE_PATH}/AppShare/goodsShare?id=${GOODS}&lang=zh-CN`,
      headers: { host: SITE_HOST },
    });
    expect(plain.body).not.toContain('下载谷圈 App');
    expect(plain.headers.etag).not.toBe(page.headers.etag);
  });
});

describe('anything else on the link domain', () => {
  it('is not found, and kept out of search engines', async () => {
    for (const path of [
      `${BASE_PATH}/website`,
      `${BASE_PATH}/api/v1/health`,
      '/robots.txt',
      `/goods/${GOODS}/more`,
      '/goods',
      '/users/abc',
      '/.well-known/other',
    ]) {
      const response = await onLink(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['x-robots-tag'], path).toMatch(/noindex/);
      expect(response.body, path).toContain('noindex');
    }
    expect((await onLink('/', {}, 'POST')).statusCode).toBe(404);
    expect((await onLink(AASA, {}, 'POST')).statusCode).toBe(404);
  });
});

describe('share pages', () => {
  it('link "open" to the item’s Universal Link on LINK_ORIGIN in the server’s HTML, and say the origin', async () => {
    const page = await app.inject({
      url: `${BASE_PATH}/AppShare/goodsShare?id=${GOODS}&lang=zh-CN`,
      headers: { host: SITE_HOST },
    });
    expect(page.body).toContain(`<meta name="guquan-link-origin" content="http://${LINK}">`);
    const opens = page.body.match(/<a [^>]*href="http:\/\/link\.test\/goods\/[^"]+"[^>]*>/g) ?? [];
    // The top bar's "打开" and the main button.
    expect(opens).toHaveLength(2);
    expect(opens[0]).toContain(`href="http://${LINK}/goods/${GOODS}?image=0"`);
    // Safari's banner opens the app where "open" would.
    expect(page.body).toContain(`app-argument=http://${LINK}/goods/${GOODS}?image=0`);
  });

  it('built ahead or not, every page says the link origin', async () => {
    const website = await app.inject({ url: `${BASE_PATH}/website`, headers: { host: SITE_HOST } });
    expect(website.body).toContain(`<meta name="guquan-link-origin" content="http://${LINK}">`);
  });
});
