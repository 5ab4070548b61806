import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { routeTable } from '../../../web/src/config/route-table.ts';
import { demoPageQuery } from '../demo/seed/demo-pages.ts';
import { buildTestApp } from '../test-support/test-app.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const pages = routeTable.filter((entry) => entry.path !== '*');
const titleIn = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const langIn = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1];

describe('pages', () => {
  it.each(pages)('serves $path with its title in Chinese and in English', async (entry) => {
    const query = demoPageQuery(entry.path);
    const url = `/anime_merch_web${entry.path}${query ? `?${query}` : ''}`;
    const zh = await app.inject({ url, headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(zh.statusCode).toBe(200);
    expect(titleIn(zh.body)).toBe(entry.titles['zh-CN']);
    expect(langIn(zh.body)).toBe('zh-CN');
    expect(zh.headers['content-language']).toBe('zh-CN');

    const en = await app.inject({ url, headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(titleIn(en.body)).toBe(entry.titles.en);
    expect(langIn(en.body)).toBe('en');
  });

  it('lets ?lang= win over Accept-Language, and falls back to Chinese', async () => {
    const en = await app.inject({
      url: '/anime_merch_web/AppShare/cabinetShare?lang=en',
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(titleIn(en.body)).toBe('painful cabinet');
    const zh = await app.inject({
      url: '/anime_merch_web/AppShare/cabinetShare?lang=zh-CN',
      headers: { 'accept-language': 'en' },
    });
    expect(titleIn(zh.body)).toBe('痛柜');
    const other = await app.inject({
      url: '/anime_merch_web/AppShare/cabinetShare',
      headers: { 'accept-language': 'fr-FR, de' },
    });
    expect(titleIn(other.body)).toBe('痛柜');
    const none = await app.inject({ url: '/anime_merch_web/AppShare/cabinetShare' });
    expect(titleIn(none.body)).toBe('痛柜');
  });

  it('tolerates odd and oversized language inputs', async () => {
    const res = await app.inject({
      url: '/anime_merch_web/website?lang=%3Cscript%3E&lang=en',
      headers: { 'accept-language': 'x'.repeat(4000) },
    });
    expect(res.statusCode).toBe(200);
    expect(titleIn(res.body)).toBe('谷圈官网');
    expect(res.body).not.toContain('<script>');
  });

  it('renders the page on the server, then loads the app with its route chunk', async () => {
    const res = await app.inject({ url: '/anime_merch_web/APPPage/logOut?lang=en' });
    // The page's heading in its own words; the document keeps the spec's title.
    expect(res.body).toMatch(/<div id="root"><main[^>]*>[\s\S]*Delete account[\s\S]*<\/main>/);
    expect(res.body).toContain('<title>deregister account</title>');
    // The router's data as a JSON block, which runs nothing (no CSP hash needed).
    expect(res.body).toContain('<script type="application/json" id="app-hydration">{"state":');
    expect(res.body).not.toContain('window.__staticRouterHydrationData');
    // No script or preload in <head>: the app loads after the first paint.
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).not.toMatch(/<script|modulepreload/);
    const boot = /<script type="module">([^<]*)<\/script>\s*<\/body>/.exec(res.body)?.[1];
    expect(boot).toMatch(/"\/anime_merch_web\/assets\/account-deletion-[\w-]+\.js"/);
    expect(boot).toMatch(/import\("\/anime_merch_web\/assets\/index-[\w-]+\.js"\)/);
    expect(boot).not.toMatch(/assets\/website-[\w-]+\.js/);
  });

  it('carries its styles inline, so the first paint waits for no stylesheet', async () => {
    const res = await app.inject({ url: '/anime_merch_web/agreement/userInfoList' });
    const links = res.body.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
    // Each inlined file is claimed by a disabled link, so the app does not fetch it again.
    expect(links.length).toBeGreaterThan(0);
    for (const link of links)
      expect(link).toMatch(/ href="\/anime_merch_web\/assets\/[\w-]+\.css" disabled>$/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? '';
    expect(style).toContain('font-size:10vw'); // the global layout rules
    expect(style).toMatch(/\._topBar_\w+\{/); // the legal page's own styles
  });

  it('names PNG icons it serves (an SVG icon would cost the page an SVG document)', async () => {
    const res = await app.inject({ url: '/anime_merch_web/website' });
    const icons = [
      ...res.body.matchAll(/<link rel="(?:icon|apple-touch-icon)"[^>]* href="([^"]+)"/g),
    ];
    expect(icons).toHaveLength(2);
    for (const [, href] of icons) {
      const icon = await app.inject({ url: href ?? '' });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/png');
    }
  });

  it('never lets HTML be cached without revalidation', async () => {
    const res = await app.inject({ url: '/anime_merch_web/website' });
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toContain('Accept-Language');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('compresses pages for clients that accept it', async () => {
    const br = await app.inject({
      url: '/anime_merch_web/website',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    const gzip = await app.inject({
      url: '/anime_merch_web/website',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });
});

describe('unknown paths', () => {
  it('answers an unknown page under the base path with the not-found page and 404', async () => {
    const res = await app.inject({ url: '/anime_merch_web/no/such/page?lang=en' });
    expect(res.statusCode).toBe(404);
    expect(titleIn(res.body)).toBe('goods-circle APP');
    expect(res.body).toContain('Page not found');
    expect(res.body).toContain('href="/anime_merch_web/website"');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('sends a page path outside the base path under it', async () => {
    const lost = await app.inject({ url: '/AppShare/goodsShare?lang=en' });
    expect(lost.statusCode).toBe(302);
    expect(lost.headers.location).toBe('/anime_merch_web/AppShare/goodsShare?lang=en');
    const unknown = await app.inject({ url: '/wp-login.php' });
    expect(unknown.headers.location).toBe('/anime_merch_web/wp-login.php');
    const page = await app.inject({ url: unknown.headers.location });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('页面不存在');
  });

  it('never redirects to another site', async () => {
    const res = await app.inject({ url: '//evil.example/x' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/anime_merch_web//evil.example/x');
    const page = await app.inject({ url: '/anime_merch_web//evil.example/x' });
    expect(page.statusCode).toBe(404);
  });

  it('answers other methods on pages with a JSON 404', async () => {
    const res = await app.inject({ method: 'POST', url: '/anime_merch_web/website', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(apiErrorSchema.parse(res.json()).error.code).toBe('not_found');
  });
});

describe('redirects', () => {
  it.each(['/', '/anime_merch_web', '/anime_merch_web/'])(
    'sends %s to the website page',
    async (url) => {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/anime_merch_web/website');
    },
  );

  it('keeps the query string', async () => {
    const res = await app.inject({ url: '/?lang=en' });
    expect(res.headers.location).toBe('/anime_merch_web/website?lang=en');
  });
});
