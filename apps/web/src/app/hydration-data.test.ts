import type { StaticHandlerContext } from 'react-router';
import { describe, expect, it } from 'vitest';
import { hydrationDataScript, movedSinceRender, readHydrationData } from './hydration-data';
import { createRoutes } from './routes';

const context = {
  loaderData: { note: { text: '</script><script>alert(1)</script> \u2028 & <!--' } },
  actionData: null,
  errors: { root: new TypeError('broken') },
} as unknown as StaticHandlerContext;

describe('the hydration data block', () => {
  it('cannot be closed by the text it carries, and reads back whole', () => {
    const script = hydrationDataScript(context, { pathname: '/a', search: '?id=1' });
    expect(script).toMatch(/^<script type="application\/json" id="app-hydration">[^<]*<\/script>$/);
    document.body.innerHTML = script;
    const payload = readHydrationData(document);
    expect(payload?.state.loaderData).toEqual(context.loaderData);
    // Errors as React Router's browser router revives them.
    expect(payload?.state.errors).toEqual({
      root: { message: 'broken', __type: 'Error', __subType: 'TypeError' },
    });
    expect(payload?.location).toEqual({ pathname: '/a', search: '?id=1' });
  });

  it('is absent or unreadable: no data', () => {
    document.body.innerHTML = '<script type="application/json" id="app-hydration">{oops</script>';
    expect(readHydrationData(document)).toBeUndefined();
    document.body.innerHTML = '';
    expect(readHydrationData(document)).toBeUndefined();
  });
});

describe('movedSinceRender', () => {
  const routes = createRoutes();
  const rendered = { pathname: '/anime_merch_web/AppShare/goodsShare', search: '?id=A&lang=zh-CN' };
  it.each([
    ['/anime_merch_web/AppShare/goodsShare', '?id=A&lang=zh-CN', false],
    ['/anime_merch_web/AppShare/goodsShare', '?lang=en&id=A&from=timeline', false],
    ['/anime_merch_web/AppShare/goodsShare', '?id=A', false],
    ['/anime_merch_web/AppShare/goodsShare', '?id=B', true],
    ['/anime_merch_web/AppShare/goodsShare', '', true],
    ['/anime_merch_web/website', '?id=A', true],
    // Spellings of the same route: the server sends them one page.
    ['/anime_merch_web/appshare/GOODSSHARE/', '?id=A', false],
    ['/anime_merch_web/%41ppShare/goodsShare', '?id=A', false],
    ['/anime_merch_web/AppShare/cabinetShare', '?id=A', true],
  ])('%s%s: %s', (pathname, search, moved) => {
    expect(movedSinceRender(rendered, { pathname, search }, routes)).toBe(moved);
  });

  it('takes any unknown path for another: one not-found page serves them all', () => {
    const notFound = { pathname: '/anime_merch_web/no-such-page', search: '' };
    expect(
      movedSinceRender(notFound, { pathname: '/anime_merch_web/other', search: '' }, routes),
    ).toBe(false);
    expect(
      movedSinceRender(notFound, { pathname: '/anime_merch_web/website', search: '' }, routes),
    ).toBe(true);
  });
});
