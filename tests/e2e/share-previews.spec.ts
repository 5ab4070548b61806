import type { APIRequestContext } from '@playwright/test';
import type { ShareItems } from '@guquan/contract/share';
import { shareApiPath, type ShareKind } from '@guquan/contract/share-paths';
import { shareTitle } from '@guquan/contract/share-titles';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { BASE_PATH, expect, fullPath, routeById, test, titleOf } from './fixtures.ts';

/**
 * Link previews without JavaScript: what WeChat, QQ, Weibo and search engines read is the server's
 * raw HTML, so these tests read only the response, never the rendered page.
 */
const SHARES = [
  { route: routeById('goods-share'), id: DEMO_IDS.goods.gallery, kind: 'goods' },
  { route: routeById('cabinet-share'), id: DEMO_IDS.cabinets.main, kind: 'cabinet' },
  { route: routeById('notes-share'), id: DEMO_IDS.notes.rich, kind: 'note' },
] as const;

/** The app's name in a preview title, per language. */
const APP_NAMES = { 'zh-CN': '谷圈', en: 'Goods Circle' } as const;

/** The item's own name (a note's title), as the share API gives it. */
async function itemName(request: APIRequestContext, kind: ShareKind, id: string): Promise<string> {
  const response = await request.get(shareApiPath(kind, id));
  expect(response.status()).toBe(200);
  return shareTitle(kind, (await response.json()) as ShareItems[ShareKind]);
}

/** As the server escapes text into an attribute. */
function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/'/g, '&#39;');
}

function metaContent(html: string, key: string): string | undefined {
  const tag = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html);
  return tag?.[1];
}

test.describe('share previews in the raw HTML', () => {
  for (const { route, id, kind } of SHARES) {
    test(`${route.path} carries the item's title, description and image for previews`, async ({
      request,
      baseURL,
    }) => {
      const response = await request.get(`${fullPath(route)}?id=${id}&lang=zh-CN`);
      expect(response.status()).toBe(200);
      const html = await response.text();
      // The document keeps the spec's title; the preview names what was shared, and the app.
      expect(html).toContain(`<title>${titleOf(route, 'zh-CN')}</title>`);
      expect(metaContent(html, 'og:type')).toBe('article');
      const name = await itemName(request, kind, id);
      expect(name.length).toBeGreaterThan(1);
      expect(metaContent(html, 'og:title')).toBe(escapeText(`${name} - 谷圈`));
      expect(metaContent(html, 'twitter:title')).toBe(metaContent(html, 'og:title'));
      expect(metaContent(html, 'og:description')?.length).toBeGreaterThan(4);
      expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
      expect(metaContent(html, 'og:url')).toBe(
        `${baseURL}${fullPath(route)}?id=${id}&amp;lang=zh-CN`,
      );
      expect(metaContent(html, 'robots')).toBeUndefined();
      // The item's 1200×630 preview card, a JPEG every previewer shows, at the address of its version.
      const image = metaContent(html, 'og:image');
      expect(image).toMatch(
        new RegExp(
          `^${baseURL}${BASE_PATH}/pictures/\\w+/${id}/card\\.zh-CN\\.[0-9a-z]{22}\\.jpg$`,
        ),
      );
      expect(metaContent(html, 'twitter:image')).toBe(image);
      expect(metaContent(html, 'og:image:width')).toBe('1200');
      expect(metaContent(html, 'og:image:height')).toBe('630');
      expect(metaContent(html, 'og:image:alt')?.length).toBeGreaterThan(4);
      const imageResponse = await request.get(image ?? '');
      expect(imageResponse.status()).toBe(200);
      expect(imageResponse.headers()['content-type']).toBe('image/jpeg');
      expect((await imageResponse.body()).length).toBeLessThan(300_000);
      // The page's largest image is asked for before any script runs.
      expect(html).toMatch(/<link rel="preload" as="image" href="[^"]+" imagesrcset="[^"]+"/);
      // …with the very widths the page's first <img> lists, or the browser would fetch it twice.
      const preloaded = /<link rel="preload" as="image" [^>]*imagesrcset="([^"]+)"/.exec(html)?.[1];
      const firstImage = /<img [^>]*loading="eager"[^>]*>/.exec(html)?.[0] ?? '';
      expect(/srcSet="([^"]+)"/.exec(firstImage)?.[1]).toBe(preloaded);
    });
  }

  test('the preview title is in the page’s language, with the app’s name in it', async ({
    request,
  }) => {
    for (const { route, id, kind } of SHARES) {
      const name = await itemName(request, kind, id);
      for (const language of ['zh-CN', 'en'] as const) {
        const html = await (
          await request.get(`${fullPath(route)}?id=${id}&lang=${language}`)
        ).text();
        expect(metaContent(html, 'og:title')).toBe(escapeText(`${name} - ${APP_NAMES[language]}`));
        expect(html).toContain(`<title>${titleOf(route, language)}</title>`);
      }
    }
  });

  const FAILURES = [
    { route: routeById('goods-share'), query: `?id=${DEMO_IDS.goods.private}`, status: 403 },
    { route: routeById('goods-share'), query: `?id=${DEMO_IDS.goods.removed}`, status: 410 },
    { route: routeById('goods-share'), query: `?id=${DEMO_IDS.unknown}`, status: 404 },
    { route: routeById('goods-share'), query: '', status: 400 },
    { route: routeById('cabinet-share'), query: '?id=not.an.id', status: 400 },
    { route: routeById('cabinet-share'), query: `?id=${DEMO_IDS.cabinets.private}`, status: 403 },
    { route: routeById('cabinet-share'), query: `?id=${DEMO_IDS.cabinets.removed}`, status: 410 },
    { route: routeById('notes-share'), query: `?id=${DEMO_IDS.notes.private}`, status: 403 },
    { route: routeById('notes-share'), query: `?id=${DEMO_IDS.notes.removed}`, status: 410 },
    { route: routeById('notes-share'), query: `?id=${DEMO_IDS.unknown}`, status: 404 },
  ] as const;

  test('a missing, removed or private item answers its status with noindex and the neutral card', async ({
    request,
  }) => {
    for (const { route, query, status } of FAILURES) {
      const response = await request.get(`${fullPath(route)}${query}`);
      expect(response.status(), `${route.path}${query}`).toBe(status);
      const html = await response.text();
      expect(metaContent(html, 'robots'), `${route.path}${query}`).toBe('noindex, nofollow');
      expect(metaContent(html, 'og:image'), `${route.path}${query}`).toMatch(
        /\/anime_merch_web\/pictures\/neutral\/card\.zh-CN\.[0-9a-z]{22}\.jpg$/,
      );
      expect(metaContent(html, 'og:type')).toBeUndefined();
    }
  });

  test('the hostile note is escaped in every tag of the head', async ({ request }) => {
    const response = await request.get(
      `${fullPath(routeById('notes-share'))}?id=${DEMO_IDS.notes.hostile}`,
    );
    expect(response.status()).toBe(200);
    const html = await response.text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toContain('<script');
    expect(head).not.toContain('<img');
    const description = metaContent(html, 'og:description');
    expect(description).toBeDefined();
    expect(description).not.toMatch(/[<>]/);
  });
});
