import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@guquan/contract/language';
import { buildTestApp, loadTestWebBuild } from '../test-support/test-app.ts';
import { prerenderDir, renderStaticPage, withServerSettings } from './static-pages.ts';
import type { WebBuild } from './web-build.ts';

let app: FastifyInstance;
let build: WebBuild;
let manifest: { pages: { path: string; language: string; clientClass: string; file: string }[] };
let renders = 0;
const ORIGIN = 'https://www.guquan.example';
const LINK_ORIGIN = 'https://link.guquan.example';

beforeAll(async () => {
  build = await loadTestWebBuild();
  manifest = JSON.parse(
    await readFile(join(prerenderDir(build), 'manifest.json'), 'utf8'),
  ) as typeof manifest;
  app = await buildTestApp(
    { PUBLIC_ORIGIN: ORIGIN, LINK_ORIGIN },
    {
      webBuild: {
        ...build,
        renderer: {
          ...build.renderer,
          renderPage: (request) => {
            renders += 1;
            return build.renderer.renderPage(request);
          },
        },
      },
    },
  );
});
afterAll(async () => {
  await app.close();
});

const WECHAT_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) MicroMessenger/8.0.50';

describe('pages built ahead', () => {
  it('exist for every static page, language and device class', () => {
    const paths = build.renderer.staticPagePaths();
    expect(paths).toContain('/anime_merch_web/website');
    expect(paths).toContain('/anime_merch_web/agreement/yiSi/YiSiAgreement20251015');
    for (const path of paths)
      for (const language of LANGUAGES)
        expect(
          manifest.pages.filter((page) => page.path === path && page.language === language),
        ).toHaveLength(27);
    // 3 platforms × 9 browsers (8 in-app browsers and the rest), each its own class.
    const classes = new Set(
      build.renderer.clientClassSamples().map((userAgent) => build.renderer.clientClass(userAgent)),
    );
    expect(classes.size).toBe(27);
  });

  it('are sent as built, without rendering, with the markup a render on request gives', async () => {
    const before = renders;
    for (const path of build.renderer.staticPagePaths()) {
      for (const [language, userAgent] of [
        ['en', WECHAT_IPHONE],
        ['zh-CN', undefined],
      ] as const) {
        const res = await app.inject({
          url: `${path}?lang=${language}&from=timeline`,
          headers: userAgent ? { 'user-agent': userAgent } : {},
        });
        expect(res.statusCode).toBe(200);
        const entry = manifest.pages.find(
          (page) =>
            page.path === path &&
            page.language === language &&
            page.clientClass === build.renderer.clientClass(userAgent),
        );
        const file = await readFile(join(prerenderDir(build), entry?.file ?? ''), 'utf8');
        expect(res.body).toBe(
          withServerSettings(file, { demo: true, publicOrigin: ORIGIN, linkOrigin: LINK_ORIGIN }),
        );
        // The link domain is the server's setting, never the build's.
        expect(file).not.toContain('guquan-link-origin');
        expect(res.body).toContain(`<meta name="guquan-link-origin" content="${LINK_ORIGIN}">`);
        const fresh = await renderStaticPage(build, path, language, userAgent);
        expect(file).toBe(fresh.html);
        expect(res.headers['x-robots-tag']).toBe(fresh.robots);
      }
    }
    // The app's renderer (the comparison above uses the build's own) never ran.
    expect(renders - before).toBe(0);
  });

  it('keep their title per language and their device-specific parts', async () => {
    const en = await app.inject({ url: '/anime_merch_web/website?lang=en' });
    expect(en.body).toContain('<title>goods-circle official website</title>');
    expect(en.body).toContain('<html lang="en">');
    const wechat = await app.inject({
      url: '/anime_merch_web/website',
      headers: { 'user-agent': WECHAT_IPHONE },
    });
    expect(wechat.body).toContain('<title>谷圈官网</title>');
    expect(wechat.body).toContain('微信');
    expect(wechat.body).not.toBe(en.body);
  });

  it('answer If-None-Match with 304, and revalidate on every visit', async () => {
    const url = '/anime_merch_web/agreement/userInfoList';
    const first = await app.inject({ url });
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await app.inject({
      url,
      headers: { 'if-none-match': first.headers.etag ?? '' },
    });
    expect(again.statusCode).toBe(304);
    const english = await app.inject({
      url: `${url}?lang=en`,
      headers: { 'if-none-match': first.headers.etag ?? '' },
    });
    expect(english.statusCode).toBe(200);
  });
});

describe('a build whose pages were not built ahead', () => {
  it('still serves them, rendering each once', async () => {
    let rendered = 0;
    const other = await buildTestApp(
      {},
      {
        webBuild: {
          ...build,
          // Another build's id: the prerendered files are not this build's, so they are ignored.
          buildId: 'another-build',
          renderer: {
            ...build.renderer,
            renderPage: (request) => {
              rendered += 1;
              return build.renderer.renderPage(request);
            },
          },
        },
      },
    );
    try {
      const first = await other.inject({ url: '/anime_merch_web/website?lang=en' });
      const second = await other.inject({ url: '/anime_merch_web/website?lang=en&x=1' });
      expect(first.statusCode).toBe(200);
      expect(first.body).toContain('<title>goods-circle official website</title>');
      expect(second.body).toBe(first.body);
      expect(rendered).toBe(1);
    } finally {
      await other.close();
    }
  });
});
