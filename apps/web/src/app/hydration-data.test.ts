import type { StaticHandlerContext } from 'react-router';
import { describe, expect, it } from 'vitest';
import { hydrationDataScript, movedSinceRender, readHydrationData } from './hydration-data';

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
  const rendered = { pathname: '/x/AppShare/goodsShare', search: '?id=A&lang=zh-CN' };
  it.each([
    ['/x/AppShare/goodsShare', '?id=A&lang=zh-CN', false],
    ['/x/AppShare/goodsShare', '?lang=en&id=A&from=timeline', false],
    ['/x/AppShare/goodsShare', '?id=A', false],
    ['/x/AppShare/goodsShare', '?id=B', true],
    ['/x/AppShare/goodsShare', '', true],
    ['/x/website', '?id=A', true],
  ])('%s%s: %s', (pathname, search, moved) => {
    expect(movedSinceRender(rendered, { pathname, search })).toBe(moved);
  });
});
