import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShareResult } from '@guquan/contract/share';
import type { WorkShelf } from '@guquan/contract/share-shelf';
import { workShelfSchema } from '@guquan/contract/share-shelf';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { cabinetFixture, goodsFixture } from '../../../test-support/share-fixtures';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { GoodsView } from '../views/goods-view';
import { SharePage } from './share-page';

beforeEach(stubLayoutApis);
afterEach(cleanup);

/** The cabinet fixture's goods as a shelf: one for sale with a price, one on show, one wanted. */
const shelfFixture: WorkShelf = workShelfSchema.parse({
  work: '咒术回战',
  goods: cabinetFixture.items.slice(0, 3).map((item, index) => ({
    ...item,
    priceFen: index === 1 ? 1200 : 3500,
  })),
});

function renderGoodsPage(
  result: ShareResult<'goods'>,
  shelf: WorkShelf | null | Promise<WorkShelf | null>,
  { language = 'zh-CN', query = '' }: { language?: Language; query?: string } = {},
) {
  return renderShareRoute({
    path: '/AppShare/goodsShare',
    url: `/AppShare/goodsShare?id=${goodsFixture.id}${query}`,
    element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
    loader: () => ({ kind: 'goods', result, shelf }),
    language,
  });
}

describe('the "more from this work" shelf', () => {
  it('ends a goods page: each tile links to its goods, keeps the language, and shows a price only for sale', async () => {
    renderGoodsPage({ state: 'ok', item: goodsFixture }, shelfFixture, {
      language: 'en',
      query: '&lang=en',
    });
    const section = await screen.findByRole('region', { name: 'More from 咒术回战' });
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(
      shelfFixture.goods.map((goods) => `${BASE_PATH}/AppShare/goodsShare?id=${goods.id}&lang=en`),
    );
    const [selling, display, wanted] = shelfFixture.goods.map((goods) => goods.status);
    expect([selling, display, wanted]).toEqual(['selling', 'display', 'wanted']);
    expect(links[0]?.textContent).toContain('¥35.00');
    expect(links[1]?.textContent).not.toContain('¥');
    expect(links[2]?.textContent).not.toContain('¥');
    // After the item: the page's last section.
    expect(screen.getByRole('article').compareDocumentPosition(section)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('names no work when the shelf holds the newest goods, and ends a failure page too', async () => {
    renderGoodsPage({ state: 'removed' }, { ...shelfFixture, work: null });
    expect(await screen.findByRole('region', { name: '看看大家最近分享的谷子' })).toBeDefined();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('这件谷子已被删除');
  });

  it('waits for a shelf the browser fetches, and is left out when there is none', async () => {
    let resolve: (shelf: WorkShelf | null) => void = () => undefined;
    renderGoodsPage(
      { state: 'ok', item: goodsFixture },
      new Promise((done) => {
        resolve = done;
      }),
    );
    await screen.findByRole('article');
    expect(screen.queryByRole('region', { name: /咒术回战/ })).toBeNull();
    resolve(shelfFixture);
    expect(await screen.findByRole('region', { name: '更多「咒术回战」的谷子' })).toBeDefined();
    cleanup();
    renderGoodsPage({ state: 'ok', item: goodsFixture }, null);
    await screen.findByRole('article');
    expect(document.querySelector('[data-work-shelf]')).toBeNull();
  });
});
