import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageRenderModule } from '@guquan/contract/page-render';
import { sharePagePath, type ShareKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import type { RenderBudgetOptions } from './render-budget.ts';
import { buildTestApp, loadTestWebBuild } from '../test-support/test-app.ts';

/**
 * Pages nobody asked for before (issue 17, item 4: an outside audit's flood of them took a hot
 * share page's p99 to seconds): each spelling of a route is its one page, each state without an
 * item of its own is rendered once per kind and language, and a scan of real items' pages is
 * held back per client. The CPU they cost is measured by `npm run bench:server`.
 */
const rendered: string[] = [];

async function appWithCountedRenders(renderBudget?: RenderBudgetOptions) {
  const real = await loadTestWebBuild();
  const renderer: PageRenderModule = {
    ...real.renderer,
    renderPage(request) {
      rendered.push(request.url);
      return real.renderer.renderPage(request);
    },
  };
  return buildTestApp({}, { webBuild: { ...real, renderer }, renderBudget });
}

const sharePage = (kind: ShareKind, id?: string) => `${BASE_PATH}${sharePagePath(kind, id)}`;

/** A random id of the right form: well formed, belonging to nothing. */
function unknownId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return Array.from({ length: 16 }, () => alphabet[Math.floor(Math.random() * 64)]).join('');
}

describe('one-off pages', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWithCountedRenders();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const before = rendered.length;
    const res = await app.inject({ url, headers });
    return { res, renders: rendered.length - before };
  };

  it('serve every spelling of a share page as its one page: same bytes, no render, no redirect', async () => {
    const canonical = await get(sharePage('goods', DEMO_IDS.goods.gallery));
    expect(canonical.res.statusCode).toBe(200);
    for (const spelling of [
      `${BASE_PATH}/appshare/goodsshare?id=${DEMO_IDS.goods.gallery}`,
      `${BASE_PATH}/APPSHARE/GOODSSHARE/?id=${DEMO_IDS.goods.gallery}`,
      `${BASE_PATH}/AppShare/goodsShare/?id=${DEMO_IDS.goods.gallery}&from=timeline`,
      `${BASE_PATH}/%41pp%53hare/goods%73hare?id=${DEMO_IDS.goods.gallery}`,
    ]) {
      const { res, renders } = await get(spelling);
      expect(res.statusCode, spelling).toBe(200);
      expect(renders, spelling).toBe(0);
      expect(res.body, spelling).toBe(canonical.res.body);
      expect(res.headers.etag, spelling).toBe(canonical.res.headers.etag);
    }
  });

  it('serve every spelling of a page built ahead as that page, without rendering', async () => {
    const website = await get(`${BASE_PATH}/website`);
    expect(website.res.statusCode).toBe(200);
    for (const spelling of ['/Website', '/WEBSITE/', '/%77ebsite', '/webSite/?from=timeline']) {
      const { res, renders } = await get(`${BASE_PATH}${spelling}`);
      expect(res.statusCode, spelling).toBe(200);
      expect(renders, spelling).toBe(0);
      expect(res.body, spelling).toBe(website.res.body);
    }
  });

  it('render a missing, malformed or unknown id once per kind and language', async () => {
    const malformed = [
      '',
      '%3Cscript%3E',
      'x'.repeat(6000),
      `${DEMO_IDS.goods.gallery}${'x'.repeat(49)}`,
    ];
    const first = await get(sharePage('goods', unknownId()));
    expect(first.res.statusCode).toBe(404);
    const firstMalformed = await get(`${sharePage('goods')}?id=${malformed[0]}`);
    expect(firstMalformed.res.statusCode).toBe(400);
    for (let index = 0; index < 10; index += 1) {
      const id = unknownId();
      const unknown = await get(sharePage('goods', id));
      expect(unknown.res.statusCode).toBe(404);
      expect(unknown.renders).toBe(0);
      // The page is the kind's own: it names no id.
      expect(unknown.res.body).not.toContain(id);
      expect(unknown.res.body).toBe(first.res.body);
    }
    for (const id of malformed) {
      const bad = await get(`${sharePage('goods')}?id=${id}`);
      expect(bad.res.statusCode).toBe(400);
      expect(bad.renders).toBe(0);
      expect(bad.res.body).toBe(firstMalformed.res.body);
    }
    // Another language, another kind: a page of its own, once.
    const english = await get(`${sharePage('goods', unknownId())}&lang=en`);
    expect(english.renders).toBe(1);
    expect((await get(`${sharePage('goods', unknownId())}&lang=en`)).renders).toBe(0);
    const cabinet = await get(sharePage('cabinet', unknownId()));
    expect(cabinet.res.statusCode).toBe(404);
    expect(cabinet.renders).toBe(1);
    expect((await get(sharePage('cabinet', unknownId()))).renders).toBe(0);
  });

  it('render the not-found page once per language, whatever the unknown path', async () => {
    const first = await get(`${BASE_PATH}/no-such-page`);
    expect(first.res.statusCode).toBe(404);
    for (const path of ['/x1', '/AppShare/goodsShare/extra', `/${'y'.repeat(3000)}`, '/a/b/c/']) {
      const { res, renders } = await get(`${BASE_PATH}${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(renders, path).toBe(0);
      expect(res.body, path).toBe(first.res.body);
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    }
    // Not the first visitor's path: what they typed is not shown to the next.
    expect(first.res.body).not.toContain('no-such-page');
    const english = await get(`${BASE_PATH}/no-such-page?lang=en`);
    expect(english.renders).toBe(1);
    expect(english.res.body).toContain('<html lang="en">');
  });

  it('compress a one-off page without holding up the pages already made', async () => {
    const { res } = await get(sharePage('note', unknownId()), { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBe('br');
  });
});

describe('a scan of real items’ pages', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWithCountedRenders({ burst: 3, perSecond: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  const from = (remoteAddress: string, url: string) => app.inject({ url, remoteAddress });

  it('is held back per client once it has had its renders; pages already rendered are not', async () => {
    const scanner = '203.0.113.9';
    const items = [
      sharePage('goods', DEMO_IDS.goods.noPrice),
      sharePage('goods', DEMO_IDS.goods.private),
      sharePage('goods', DEMO_IDS.goods.removed),
      sharePage('note', DEMO_IDS.notes.rich),
    ];
    const answers = [];
    for (const url of items) answers.push((await from(scanner, url)).statusCode);
    expect(answers).toEqual([200, 403, 410, 429]);
    const held = await from(scanner, `${items[3]}&lang=en`);
    expect(held.statusCode).toBe(429);
    expect(held.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(held.headers['cache-control']).toBe('no-store');
    expect(held.headers['retry-after']).toBe('1');
    expect(held.body).toContain('<html lang="en">');
    expect(held.body).not.toMatch(/<script/);
    // Pages already rendered cost nothing: still served to the scanner.
    expect((await from(scanner, items[0] ?? '')).statusCode).toBe(200);
    // Pages that name no item are rendered once for everyone: not counted.
    expect((await from(scanner, sharePage('cabinet', unknownId()))).statusCode).toBe(404);
    expect((await from(scanner, `${BASE_PATH}/website`)).statusCode).toBe(200);
    // Another client has its own renders.
    expect((await from('198.51.100.4', items[3] ?? '')).statusCode).toBe(200);
    expect((await from(scanner, items[3] ?? '')).statusCode).toBe(200);
  });
});
