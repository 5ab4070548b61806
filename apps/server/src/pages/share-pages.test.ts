import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageHead, PageRenderModule, PageRenderRequest } from '@guquan/contract/page-render';
import type { ShareResult } from '@guquan/contract/share';
import {
  imageUrl,
  SHARE_FAILURES,
  shareApiPath,
  type ShareKind,
} from '@guquan/contract/share-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, loadTestWebBuild } from '../test-support/test-app.ts';

/**
 * The server side of the share pages: the renderer gets the database's reader, and what the
 * page's head makes of an item reaches the HTML. The pages and their heads are tested in apps/web
 * (its share-head.ts needs the DOM's types); here a stand-in renderer reads the share as the web
 * app's loader does and gives a head of the same kind.
 */
function headOf(result: ShareResult<ShareKind>): PageHead {
  if (result.state !== 'ok') return { noindex: true };
  const image = 'cover' in result.item ? result.item.cover : result.item.images[0];
  return {
    ogType: 'article',
    description: result.item.text.slice(0, 100),
    ...(image
      ? { image: { path: imageUrl(image.id, 750), width: 750, height: 750, alt: image.alt } }
      : {}),
  };
}

let app: FastifyInstance;
const seen: PageRenderRequest[] = [];

const SHARE_PAGES: Readonly<Record<string, ShareKind>> = {
  '/anime_merch_web/AppShare/goodsShare': 'goods',
  '/anime_merch_web/AppShare/cabinetShare': 'cabinet',
  '/anime_merch_web/AppShare/notesShare': 'note',
};

beforeAll(async () => {
  const real = await loadTestWebBuild();
  const renderer: PageRenderModule = {
    async renderPage(request) {
      seen.push(request);
      const url = new URL(request.url, 'http://page.internal');
      const kind = SHARE_PAGES[url.pathname];
      if (!kind || !request.shares) return real.renderer.renderPage(request);
      const result = await request.shares.read(kind, url.searchParams.get('id'));
      return {
        status: result.state === 'ok' ? 200 : SHARE_FAILURES[result.state],
        title: result.state === 'ok' && 'name' in result.item ? result.item.name : 'share',
        html: '<main></main>',
        modules: [],
        head: headOf(result),
      };
    },
  };
  app = await buildTestApp({}, { webBuild: { ...real, renderer } });
});
afterAll(async () => {
  await app.close();
});

describe('share pages on the server', () => {
  it('hand the renderer a reader, and the item reaches the preview tags', async () => {
    const res = await app.inject({
      url: `/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&from=wechat`,
    });
    expect(res.statusCode).toBe(200);
    expect(seen.at(-1)?.shares).toBeDefined();
    expect(res.body).toContain(
      '<meta property="og:title" content="五条悟 涩谷事变 闪光吧唧 58mm">',
    );
    expect(res.body).toMatch(
      /<meta property="og:image" content="http:\/\/127\.0\.0\.1:8080\/anime_merch_web\/media\/[\w-]{16}\/750\.webp">/,
    );
    // The preview image is one the media route serves.
    const image = /og:image" content="http:\/\/[^/]+([^"]+)"/.exec(res.body)?.[1] ?? '';
    expect((await app.inject({ url: image })).statusCode).toBe(200);
  });

  it('give each state its status and keep it out of search engines', async () => {
    for (const [url, status] of [
      [`/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.removed}`, 410],
      [`/anime_merch_web/AppShare/cabinetShare?id=${DEMO_IDS.cabinets.private}`, 403],
      [`/anime_merch_web/AppShare/notesShare?id=${DEMO_IDS.unknown}`, 404],
      ['/anime_merch_web/AppShare/notesShare?id=%3Cscript%3E', 400],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(status);
      expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    }
  });

  it('read the same item the API answers', async () => {
    const api = await app.inject({ url: shareApiPath('note', DEMO_IDS.notes.hostile) });
    const page = await app.inject({
      url: `/anime_merch_web/AppShare/notesShare?id=${DEMO_IDS.notes.hostile}`,
    });
    expect(api.statusCode).toBe(200);
    expect(page.statusCode).toBe(200);
    // Hostile text in the head is escaped, never markup.
    expect(page.body).not.toContain('<img src=x onerror');
  });
});
