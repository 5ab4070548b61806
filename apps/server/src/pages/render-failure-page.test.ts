import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, loadTestWebBuild } from '../test-support/test-app.ts';

let app: FastifyInstance;
beforeAll(async () => {
  const build = await loadTestWebBuild();
  app = await buildTestApp(
    {},
    {
      webBuild: {
        ...build,
        renderer: {
          ...build.renderer,
          renderPage: () => Promise.reject(new Error('SQLITE_BUSY at /srv/secret/db.sqlite')),
        },
      },
    },
  );
});
afterAll(async () => {
  await app.close();
});

describe('a page whose rendering fails', () => {
  it.each([
    `/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}`,
    '/anime_merch_web/APPPage/logOut?from=app',
  ])('answers %s with an HTML error page in its language, with a retry', async (url) => {
    const zh = await app.inject({ url });
    expect(zh.statusCode).toBe(500);
    expect(zh.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(zh.headers['cache-control']).toBe('no-store');
    expect(zh.body).toContain('<html lang="zh-CN">');
    expect(zh.body).toContain('<title>页面出错了</title>');
    expect(zh.body).toContain(`<a href="${url.replaceAll('&', '&amp;')}">重试</a>`);
    expect(zh.body).not.toMatch(/SQLITE|secret|Error|stack|"error"/);
    expect(zh.body).not.toMatch(/<script/);

    const en = await app.inject({ url, headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(en.statusCode).toBe(500);
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('>Try again</a>');
  });
});
