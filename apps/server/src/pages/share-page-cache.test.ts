import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageRenderModule } from '@guquan/contract/page-render';
import { parseShareId, sharePageAddress, sharePagePath } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { REAL_USER_AGENTS } from '../../../../tests/support/real-user-agents.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { createShareReader, shareRepositories } from '../shares/share-reader.ts';
import { buildTestAppWithDb, type TestAppWithDb } from '../test-support/design-test-app.ts';
import { loadTestWebBuild } from '../test-support/test-app.ts';
import { SHARE_REUSE_SECONDS } from '../shares/recent-share-reads.ts';
import { SHARE_CHANGE_BOUND_SECONDS, SHARE_FRESH_SECONDS } from './page-cache-policy.ts';

let harness: TestAppWithDb;
let renders = 0;

beforeAll(async () => {
  const real = await loadTestWebBuild();
  const renderer: PageRenderModule = {
    ...real.renderer,
    renderPage(request) {
      renders += 1;
      return real.renderer.renderPage(request);
    },
  };
  harness = await buildTestAppWithDb({ webBuild: { ...real, renderer } });
});
afterAll(async () => {
  await harness.close();
});

const goodsUrl = (id: string) => `${BASE_PATH}${sharePagePath('goods', id)}`;
const cabinetUrl = (id: string) => `${BASE_PATH}${sharePagePath('cabinet', id)}`;

async function get(url: string, headers: Record<string, string> = {}) {
  const before = renders;
  const res = await harness.app.inject({ url, headers });
  return { res, rendered: renders - before };
}

/** Moves the clock past the time one read of an item answers for it. */
function afterReuse(): void {
  vi.setSystemTime(Date.now() + SHARE_REUSE_SECONDS * 1000 + 1);
}

describe('share pages rendered once per change', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renders a page once and sends the same bytes to the next visitors', async () => {
    const first = await get(goodsUrl(DEMO_IDS.goods.noPrice));
    const second = await get(goodsUrl(DEMO_IDS.goods.noPrice));
    expect(first.res.statusCode).toBe(200);
    expect(first.rendered).toBe(1);
    expect(second.rendered).toBe(0);
    expect(second.res.body).toBe(first.res.body);
    expect(second.res.headers.etag).toBe(first.res.headers.etag);
  });

  it('keys on the normalised language: ?lang=en and an English Accept-Language share one page', async () => {
    const id = DEMO_IDS.goods.wanted;
    const byQuery = await get(`${goodsUrl(id)}&lang=en`, { 'accept-language': 'zh-CN' });
    const byHeader = await get(goodsUrl(id), { 'accept-language': 'en-GB,en;q=0.9' });
    const byOtherHeader = await get(`${goodsUrl(id)}&from=singlemessage`, {
      'accept-language': 'en-US',
    });
    expect(byQuery.rendered).toBe(1);
    expect(byHeader.rendered).toBe(0);
    expect(byOtherHeader.rendered).toBe(0);
    expect(byHeader.res.body).toBe(byQuery.res.body);
    expect(byHeader.res.headers['content-language']).toBe('en');
    const chinese = await get(goodsUrl(id), { 'accept-language': 'zh-CN,zh;q=0.9' });
    expect(chinese.rendered).toBe(1);
    expect(chinese.res.headers.etag).not.toBe(byQuery.res.headers.etag);
    for (const { res } of [byQuery, byHeader, chinese])
      expect(res.headers.vary ?? '').not.toMatch(/accept-language/i);
  });

  it('answers If-None-Match with 304 without rendering', async () => {
    const url = goodsUrl(DEMO_IDS.goods.gallery);
    const { res } = await get(url);
    const etag = res.headers.etag ?? '';
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await get(url, { 'if-none-match': etag });
    expect(again.res.statusCode).toBe(304);
    expect(again.res.body).toBe('');
    expect(again.rendered).toBe(0);
    expect(again.res.headers.etag).toBe(etag);
    const listed = await get(url, { 'if-none-match': `"other", ${etag.slice(2)}` });
    expect(listed.res.statusCode).toBe(304);
    const stale = await get(url, { 'if-none-match': 'W/"something-else"' });
    expect(stale.res.statusCode).toBe(200);
  });

  it('shows an edit at once, then caches the new version', async () => {
    const id = DEMO_IDS.goods.noPrice;
    const before = await get(goodsUrl(id));
    await harness.db
      .updateTable('goods')
      .set({ name: '改名后的吧唧' })
      .where('public_id', '=', id)
      .execute();
    // Within a second the page read a moment ago still answers: a spike costs one query a second.
    const reused = await get(goodsUrl(id), { 'if-none-match': before.res.headers.etag ?? '' });
    expect(reused.res.statusCode).toBe(304);
    afterReuse();
    const after = await get(goodsUrl(id), { 'if-none-match': before.res.headers.etag ?? '' });
    expect(after.res.statusCode).toBe(200);
    expect(after.rendered).toBe(1);
    expect(after.res.body).toContain('改名后的吧唧');
    expect(after.res.headers.etag).not.toBe(before.res.headers.etag);
    expect((await get(goodsUrl(id))).rendered).toBe(0);
  });

  it.each([
    ['made private', 403, { visibility: 'private' as const }],
    ['removed', 410, { removed_at: '2026-11-23T00:00:00.000Z' }],
  ])('shows an item %s at once (%i)', async (_change, status, set) => {
    const { id } = await harness.db
      .selectFrom('goods')
      .select('public_id as id')
      .where('visibility', '=', 'public')
      .where('removed_at', 'is', null)
      .where('public_id', 'not in', Object.values(DEMO_IDS.goods))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect((await get(goodsUrl(id))).res.statusCode).toBe(200);
    await harness.db.updateTable('goods').set(set).where('public_id', '=', id).execute();
    afterReuse();
    const after = await get(goodsUrl(id));
    expect(after.res.statusCode).toBe(status);
    expect(after.res.headers.etag).toBeUndefined();
  });

  it("hides an item at once while its owner's deletion cool-off runs", async () => {
    const id = DEMO_IDS.notes.noImages;
    const url = `${BASE_PATH}${sharePagePath('note', id)}`;
    expect((await get(url)).res.statusCode).toBe(200);
    const note = await harness.db
      .selectFrom('notes')
      .select('author_id')
      .where('public_id', '=', id)
      .executeTakeFirstOrThrow();
    await harness.db
      .insertInto('account_deletion_requests')
      .values({
        user_id: note.author_id,
        requested_at: '2026-11-23T00:00:00.000Z',
        deletes_at: '2026-12-08T00:00:00.000Z',
        cancelled_at: null,
        cancel_reason: null,
        completed_at: null,
      })
      .execute();
    afterReuse();
    expect((await get(url)).res.statusCode).toBe(404);
  });

  it("changes a goods page's version when a goods on its shelf changes (docs/decisions/0027-work-shelf.md)", async () => {
    const id = DEMO_IDS.goods.gallery;
    const before = await get(goodsUrl(id));
    expect(before.res.statusCode).toBe(200);
    // The newest public goods of its work, which the shelf at the end of the page shows.
    const { public_id: onShelf } = await harness.db
      .selectFrom('goods')
      .select('public_id')
      .where('work', '=', '咒术回战')
      .where('visibility', '=', 'public')
      .where('removed_at', 'is', null)
      .where('public_id', 'not in', Object.values(DEMO_IDS.goods))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(before.res.body).toContain(onShelf);
    await harness.db
      .updateTable('goods')
      .set({ visibility: 'private' })
      .where('public_id', '=', onShelf)
      .execute();
    afterReuse();
    const after = await get(goodsUrl(id), { 'if-none-match': before.res.headers.etag ?? '' });
    expect(after.res.statusCode).toBe(200);
    expect(after.rendered).toBe(1);
    expect(after.res.body).not.toContain(onShelf);
    expect(after.res.headers.etag).not.toBe(before.res.headers.etag);
  });

  it("shows a cabinet's changed goods at once", async () => {
    const url = cabinetUrl(DEMO_IDS.cabinets.main);
    const before = await get(url, { 'accept-language': 'en' });
    expect(before.res.statusCode).toBe(200);
    // One of its goods is made private: the cabinet no longer lists it.
    const { goods_id: goodsId } = await harness.db
      .selectFrom('cabinet_goods')
      .innerJoin('cabinets', 'cabinets.id', 'cabinet_goods.cabinet_id')
      .innerJoin('goods', 'goods.id', 'cabinet_goods.goods_id')
      .select('cabinet_goods.goods_id')
      .where('cabinets.public_id', '=', DEMO_IDS.cabinets.main)
      .where('goods.visibility', '=', 'public')
      .where('goods.removed_at', 'is', null)
      // Not one the other tests open.
      .where('goods.public_id', 'not in', Object.values(DEMO_IDS.goods))
      .executeTakeFirstOrThrow();
    const { public_id: hidden } = await harness.db
      .selectFrom('goods')
      .select('public_id')
      .where('id', '=', goodsId)
      .executeTakeFirstOrThrow();
    expect(before.res.body).toContain(hidden);
    await harness.db
      .updateTable('goods')
      .set({ visibility: 'private' })
      .where('id', '=', goodsId)
      .execute();
    afterReuse();
    const after = await get(url, { 'accept-language': 'en' });
    expect(after.rendered).toBe(1);
    expect(after.res.body).not.toContain(hidden);
    expect(after.res.headers.etag).not.toBe(before.res.headers.etag);
  });
});

describe('HTTP caching of share pages', () => {
  const lifetime = (header: unknown, name: string) =>
    Number(new RegExp(`${name}=(\\d+)`).exec(String(header))?.[1] ?? NaN);

  it('lets shared caches keep a page named by its URL within the change bound', async () => {
    const { res } = await get(`${goodsUrl(DEMO_IDS.goods.gallery)}&lang=zh-CN`);
    const cacheControl = res.headers['cache-control'];
    expect(cacheControl).toMatch(/^public, max-age=0, /);
    expect(
      SHARE_REUSE_SECONDS +
        lifetime(cacheControl, 's-maxage') +
        lifetime(cacheControl, 'stale-while-revalidate'),
    ).toBeLessThanOrEqual(SHARE_CHANGE_BOUND_SECONDS);
    expect(SHARE_CHANGE_BOUND_SECONDS).toBeLessThanOrEqual(5);
  });

  it('keeps a page whose language came from Accept-Language out of shared caches', async () => {
    const { res } = await get(goodsUrl(DEMO_IDS.goods.gallery), { 'accept-language': 'en' });
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toBeDefined();
  });

  it('keeps error states briefly, without a stale period', async () => {
    for (const [url, status] of [
      [`${goodsUrl(DEMO_IDS.goods.removed)}&lang=en`, 410],
      [`${goodsUrl(DEMO_IDS.goods.private)}&lang=en`, 403],
      [`${goodsUrl(DEMO_IDS.unknown)}&lang=en`, 404],
      [`${BASE_PATH}${sharePagePath('goods')}?lang=en`, 400],
    ] as const) {
      const { res } = await get(url);
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['cache-control'], url).toBe(
        `public, max-age=0, s-maxage=${SHARE_FRESH_SECONDS}`,
      );
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });

  it('compresses a page once and sends the compressed copy to later visitors', async () => {
    const url = `${goodsUrl(DEMO_IDS.goods.gallery)}&lang=en`;
    const br = await get(url, { 'accept-encoding': 'gzip, br' });
    expect(br.res.headers['content-encoding']).toBe('br');
    expect(br.res.headers.vary).toMatch(/Accept-Encoding/);
    const gzip = await get(url, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.res.headers['content-encoding']).toBe('gzip');
    expect(gzip.res.headers.etag).toBe(br.res.headers.etag);
  });

  it('renders the same share page for every device, so one copy serves all', async () => {
    const { renderer } = await loadTestWebBuild();
    // The real item, so the page shows its whole markup (prompts, buttons, gallery).
    const shares = createShareReader(shareRepositories(harness.db));
    const id = parseShareId(DEMO_IDS.goods.wanted);
    const share = { kind: 'goods', result: await shares.read('goods', id) } as const;
    const url = sharePageAddress('goods', id, 'zh-CN');
    const pages = await Promise.all(
      [undefined, ...REAL_USER_AGENTS.map((sample) => sample.userAgent)].map((userAgent) =>
        renderer.renderPage({
          url,
          language: 'zh-CN',
          share,
          userAgent,
        }),
      ),
    );
    expect(pages[0]?.status).toBe(200);
    for (const page of pages) expect(page.html).toBe(pages[0]?.html);
  });
});
