import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, BASE_PATH } from '@guquan/contract/site-paths';
import { normalisedHost } from '../config/host-names.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { listenOnLoopback, rawExchange } from '../test-support/raw-http.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import type { AppLinkEvent } from './app-link-events.ts';
import { linkDomainMatcher } from './link-domain.ts';

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
      '/user/*',
      '/tag/*',
    ]);
    expect(components.slice(0, firstClaim).map((component) => component['/'])).toEqual(
      expect.arrayContaining(['/goods/', '/goods/*/*', '/note/*/*', '/user/', '/tag/*/*']),
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
      // Small enough for a proxy's header buffer (nginx's is 4 kB): an 8 kB id is cut short.
      expect(response.headers.location?.length).toBeLessThan(1024);
    }
    expect(events).toEqual([]);
  });

  it('sends a user or a tag back to the page the tap came from, the app missing, and counts it there', async () => {
    events.length = 0;
    const user = await onLink(`/user/${DEMO_IDS.users.yuyuan}?from=note%2F${DEMO_IDS.notes.rich}`, {
      'accept-language': 'en',
    });
    expect(user.statusCode).toBe(302);
    expect(user.headers.location).toBe(
      `${SITE}${BASE_PATH}/AppShare/notesShare?id=${DEMO_IDS.notes.rich}&lang=en&app=missing`,
    );
    const tag = await onLink(`/tag/${encodeURIComponent('咒术回战')}?from=goods%2F${GOODS}`);
    expect(tag.headers.location).toBe(
      `${SITE}${BASE_PATH}/AppShare/goodsShare?id=${GOODS}&lang=zh-CN&app=missing`,
    );
    expect(events).toEqual([
      ['link_fallback', 'note'],
      ['link_fallback', 'goods'],
    ]);
  });

  it('sends a user or a tag without a usable page to come back to to the download section', async () => {
    events.length = 0;
    for (const path of [
      '/user/abc',
      '/tag/x?from=',
      '/tag/x?from=goods%2Fnot%20an%20id',
      `/user/abc?from=goods%2F${GOODS}%3Fimage%3D1`,
      `/user/abc?from=users%2F${GOODS}`,
      `/user/abc?from=${encodeURIComponent(`goods/${GOODS}/x`)}`,
    ]) {
      const response = await onLink(path);
      expect(response.statusCode, path).toBe(302);
      expect(response.headers.location, path).toBe(
        `${SITE}${BASE_PATH}/website?lang=zh-CN#download`,
      );
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
      '/user/',
      '/tag/a/b',
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
    // The top bar's "打开", the main button, and the counts (likes, wants), which open the item in
    // the app too: all at the item and the image on screen.
    expect(opens).toHaveLength(4);
    for (const open of opens)
      expect(open).toContain(`href="http://${LINK}/goods/${GOODS}?image=0"`);
    // Safari's banner opens the app where "open" would.
    expect(page.body).toContain(`app-argument=http://${LINK}/goods/${GOODS}?image=0`);
  });

  it('built ahead or not, every page says the link origin', async () => {
    const website = await app.inject({ url: `${BASE_PATH}/website`, headers: { host: SITE_HOST } });
    expect(website.body).toContain(`<meta name="guquan-link-origin" content="http://${LINK}">`);
  });
});

/** What the site serves and the link domain must not: a page, the API, an in-app page. */
const SITE_PATHS = [
  `${BASE_PATH}/website`,
  `${API_BASE_PATH}/goods/${GOODS}`,
  `${BASE_PATH}/APPPage/logOut`,
];

describe('the link domain’s host, however a request writes it (as nginx reads it)', () => {
  const linkHosts = [
    'LINK.TEST',
    'link.test.',
    'Link.Test.:80',
    'link.test:8443',
    'link.test.:8080',
  ];

  it('upper case, a trailing dot or any port: its files and fallbacks answer, the site does not', async () => {
    for (const host of linkHosts) {
      for (const path of [AASA, ASSET_LINKS]) {
        const response = await onLink(path, { host });
        expect(response.statusCode, `${host} ${path}`).toBe(200);
        expect(response.headers['content-type'], `${host} ${path}`).toMatch(/^application\/json/);
      }
      expect((await onLink(`/goods/${GOODS}`, { host })).statusCode, host).toBe(302);
      for (const path of SITE_PATHS) {
        const response = await onLink(path, { host });
        expect(response.statusCode, `${host} ${path}`).toBe(404);
        expect(response.headers['x-robots-tag'], `${host} ${path}`).toMatch(/noindex/);
      }
    }
  });

  it('the site’s host written any way stays the site: its pages, never an association file', async () => {
    for (const host of [
      SITE_HOST,
      '127.0.0.1.:8080',
      '127.0.0.1',
      'localhost:8080',
      'xlink.test',
    ]) {
      for (const path of [AASA, ASSET_LINKS]) {
        const response = await app.inject({ url: path, headers: { host } });
        expect(response.statusCode, `${host} ${path}`).toBe(404);
      }
      for (const path of SITE_PATHS) {
        const response = await app.inject({ url: path, headers: { host } });
        expect(response.statusCode, `${host} ${path}`).toBe(200);
      }
    }
  });
});

describe('absolute-form request targets (`GET http://host/path`, sent straight to a server)', () => {
  let port: number;
  beforeAll(async () => {
    port = await listenOnLoopback(app);
  });

  /** The status and Location of `GET <target>` sent with `Host: <host>` over a raw socket. */
  async function exchange(target: string, host: string) {
    const answer = await rawExchange(
      port,
      `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    );
    const head = answer.text.split('\r\n\r\n', 1)[0] ?? '';
    return {
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
      location: /^location: (.*)$/im.exec(head)?.[1],
    };
  }

  it('are for the target’s host, not the Host header’s (RFC 9112 3.2.2, as nginx)', async () => {
    for (const path of SITE_PATHS) {
      // The site's host in the target, the link domain's in the Host header: the site.
      expect((await exchange(`http://${SITE_HOST}${path}`, LINK)).status, path).toBe(200);
      // And the reverse: the link domain, which serves none of the site.
      expect((await exchange(`http://${LINK}${path}`, SITE_HOST)).status, path).toBe(404);
      expect((await exchange(`HTTP://Link.Test.:80${path}`, SITE_HOST)).status, path).toBe(404);
      expect((await exchange(`https://user@${LINK}${path}`, SITE_HOST)).status, path).toBe(404);
    }
    for (const path of [AASA, ASSET_LINKS]) {
      expect((await exchange(`http://${LINK}${path}`, SITE_HOST)).status, path).toBe(200);
      expect((await exchange(`http://LINK.TEST.${path}`, SITE_HOST)).status, path).toBe(200);
      expect((await exchange(`ftp://${LINK}${path}`, SITE_HOST)).status, path).toBe(200);
      expect((await exchange(`http://${SITE_HOST}${path}`, LINK)).status, path).toBe(404);
    }
    const fallback = await exchange(`http://${LINK}/goods/${GOODS}`, SITE_HOST);
    expect(fallback.status).toBe(302);
    expect(fallback.location).toBe(
      `${SITE}${BASE_PATH}/AppShare/goodsShare?id=${GOODS}&lang=zh-CN&app=missing`,
    );
  });
});

describe('linkDomainMatcher', () => {
  const matches = (matcher: ReturnType<typeof linkDomainMatcher>, host: string) =>
    matcher(normalisedHost(host));

  it('matches LINK_ORIGIN’s host name whatever the case, trailing dot or port: nginx’s server_name', () => {
    const production = linkDomainMatcher('https://link.example.com', 'https://www.example.com');
    for (const host of [
      'link.example.com',
      'LINK.Example.COM',
      'link.example.com.',
      'link.example.com:443',
      'link.example.com.:8443',
    ])
      expect(matches(production, host), host).toBe(true);
    for (const host of [
      'www.example.com',
      'example.com',
      'xlink.example.com',
      'link.example.com..',
      'link.example.com/x',
      '',
    ])
      expect(matches(production, host), host).toBe(false);
    expect(production(undefined)).toBe(false);
  });

  it('counts the port only where the site has the same host name (demo mode’s PORT + 1)', () => {
    const demo = linkDomainMatcher('http://127.0.0.1:8081', 'http://127.0.0.1:8080');
    for (const host of ['127.0.0.1:8081', '127.0.0.1.:8081'])
      expect(matches(demo, host), host).toBe(true);
    for (const host of ['127.0.0.1:8080', '127.0.0.1', '127.0.0.1:80', 'localhost:8081'])
      expect(matches(demo, host), host).toBe(false);
    const onDefaultPort = linkDomainMatcher('http://127.0.0.1', 'http://127.0.0.1:8080');
    expect(matches(onDefaultPort, '127.0.0.1')).toBe(true);
    expect(matches(onDefaultPort, '127.0.0.1:80')).toBe(true);
    expect(matches(onDefaultPort, '127.0.0.1:8080')).toBe(false);
  });
});
