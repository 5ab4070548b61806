import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageHead, PageRenderModule, PageRenderRequest } from '@guquan/contract/page-render';
import type { ShareResult } from '@guquan/contract/share';
import {
  imageUrl,
  SHARE_FAILURES,
  shareApiPath,
  sharePagePath,
  type ShareKind,
} from '@guquan/contract/share-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, loadTestWebBuild } from '../test-support/test-app.ts';

/**
 * The server side of the share pages: the renderer gets the item the server read, and what the
 * page's head makes of it reaches the HTML. The pages and their heads are tested in apps/web (its
 * share-head.ts needs the DOM's types); here a stand-in renderer takes the share as the web app's
 * loader does and gives a head of the same kind.
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

const pageOf = (kind: ShareKind, id: string) => `/anime_merch_web${sharePagePath(kind, id)}`;

beforeAll(async () => {
  const real = await loadTestWebBuild();
  const renderer: PageRenderModule = {
    ...real.renderer,
    async renderPage(request) {
      seen.push(request);
      if (!request.share) return real.renderer.renderPage(request);
      const { result } = request.share;
      return {
        status: result.state === 'ok' ? 200 : SHARE_FAILURES[result.state],
        title: result.state === 'ok' && 'name' in result.item ? result.item.name : 'share',
        html: '<main></main>',
        hydrationScript: '',
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
  it('hand the renderer the item they read, and it reaches the preview tags', async () => {
    const res = await app.inject({
      url: `${pageOf('goods', DEMO_IDS.goods.gallery)}&from=wechat`,
    });
    expect(res.statusCode).toBe(200);
    // Rendered for its address (id and language only), with the item read once.
    expect(seen.at(-1)?.url).toBe(`${pageOf('goods', DEMO_IDS.goods.gallery)}&lang=zh-CN`);
    expect(seen.at(-1)?.share).toMatchObject({ kind: 'goods', result: { state: 'ok' } });
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
      [pageOf('goods', DEMO_IDS.goods.removed), 410],
      [pageOf('cabinet', DEMO_IDS.cabinets.private), 403],
      [pageOf('note', DEMO_IDS.unknown), 404],
      [pageOf('note', '<script>'), 400],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(status);
      expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    }
  });

  it('read the same item the API answers', async () => {
    const api = await app.inject({ url: shareApiPath('note', DEMO_IDS.notes.hostile) });
    const page = await app.inject({ url: pageOf('note', DEMO_IDS.notes.hostile) });
    expect(api.statusCode).toBe(200);
    expect(page.statusCode).toBe(200);
    // Hostile text in the head is escaped, never markup.
    expect(page.body).not.toContain('<img src=x onerror');
  });
});
