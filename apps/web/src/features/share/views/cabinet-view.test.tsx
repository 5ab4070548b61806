import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cabinet } from '@guquan/contract/share';
import { cabinetFixture } from '../../../test-support/share-fixtures';
import { HERO_SLOT, slotSrcSet } from '../media/image-slots';
import { SharePage } from '../page/share-page';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { CabinetView } from './cabinet-view';

beforeEach(stubLayoutApis);
afterEach(cleanup);

function renderCabinet(cabinet: Cabinet = cabinetFixture, query = '') {
  return renderShareRoute({
    path: '/AppShare/cabinetShare',
    url: `/AppShare/cabinetShare?id=${cabinet.id}${query}`,
    element: <SharePage kind="cabinet">{(item) => <CabinetView cabinet={item} />}</SharePage>,
    loader: () => ({ kind: 'cabinet', result: { state: 'ok', item: cabinet } }),
  });
}

describe('CabinetView', () => {
  it('opens its cover full screen in the image viewer, and Back closes it', async () => {
    const { router } = renderCabinet();
    await screen.findByRole('heading', { level: 1 });
    fireEvent.click(screen.getByRole('button', { name: /查看大图/ }));
    const viewer = await screen.findByRole('dialog');
    expect(within(viewer).getAllByRole('img', { name: cabinetFixture.cover.alt })).not.toHaveLength(
      0,
    );
    await router.navigate(-1);
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  it('shows the price on the tiles of goods for sale, and only on those', async () => {
    renderCabinet();
    const section = await screen.findByRole('region', { name: '柜中谷子' });
    const tiles = within(section).getAllByRole('link');
    expect(tiles[0]?.textContent).toContain('价格：¥35.00');
    // A wanted goods with a budget, and goods on show: no price on their tiles.
    for (const tile of tiles.slice(1)) expect(tile.textContent).not.toContain('¥');
  });

  it('shows the cover, name, owner, item count, likes and text', async () => {
    renderCabinet();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      cabinetFixture.name,
    );
    const cover = screen.getByRole('img', { name: cabinetFixture.cover.alt });
    expect(cover.getAttribute('sizes')).toBe(HERO_SLOT.sizes);
    expect(cover.getAttribute('srcset')).toBe(slotSrcSet(cabinetFixture.cover, HERO_SLOT));
    expect(cover.getAttribute('loading')).toBe('eager');
    const article = screen.getByRole('article');
    expect(article.textContent).toContain(cabinetFixture.owner.nickname);
    expect(article.textContent).toContain('共 48 件谷子');
    expect(within(screen.getByRole('list', { name: '互动数据' })).getByText('256')).toBeDefined();
    expect(screen.getByText(/三年收下来/).querySelectorAll('br')).toHaveLength(1);
  });

  it('lists its goods, each linking to that goods’ share page, and says how many more the app has', async () => {
    renderCabinet();
    const section = await screen.findByRole('region', { name: '柜中谷子' });
    const links = within(section).getAllByRole('link');
    expect(links).toHaveLength(cabinetFixture.items.length);
    expect(links[0]?.getAttribute('href')).toBe(
      '/anime_merch_web/AppShare/goodsShare?id=goodsAAAAAAAAAA1',
    );
    expect(links[0]?.textContent).toContain('五条悟 吧唧 第二弹');
    expect(links[0]?.textContent).toContain('出');
    // The first screen's tiles come after the cover, not beside it.
    for (const image of within(section).getAllByRole('img')) {
      expect(image.dataset.defer).toBe('picture');
    }
    expect(
      within(section).getByRole('button', { name: '还有 44 件谷子，打开 App 查看' }),
    ).toBeDefined();
  });

  it('keeps ?lang in the goods links, and opens a goods page', async () => {
    renderCabinet(cabinetFixture, '&lang=en');
    const link = (await screen.findAllByRole('link', { name: /立牌/ }))[0];
    expect(link?.getAttribute('href')).toBe(
      '/anime_merch_web/AppShare/goodsShare?id=goodsAAAAAAAAAA2&lang=en',
    );
    if (link) fireEvent.click(link);
    await waitFor(() => {
      expect(screen.getByText('goods page')).toBeDefined();
    });
  });

  it('says when no goods are public and offers no "more" when all are shown', async () => {
    renderCabinet({ ...cabinetFixture, items: [], itemCount: 0 });
    expect(await screen.findByText('柜子里还没有公开的谷子')).toBeDefined();
    expect(screen.queryByRole('button', { name: /还有/ })).toBeNull();
  });
});
