import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Goods } from '@guquan/contract/share';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { HERO_SLOT, slotSrcSet } from '../media/image-slots';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { SharePage } from '../page/share-page';
import { GoodsView } from './goods-view';

beforeEach(stubLayoutApis);

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`nothing at ${index}`);
  return item;
}

const first0 = () => at(goodsFixture.images, 0);
afterEach(cleanup);

function renderGoods(goods: Goods = goodsFixture, language: 'zh-CN' | 'en' = 'zh-CN') {
  const loader = vi.fn(() => ({ kind: 'goods', result: { state: 'ok', item: goods } }));
  const view = renderShareRoute({
    element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
    loader,
    language,
  });
  return { ...view, loader };
}

describe('GoodsView', () => {
  it('shows every field of the goods', async () => {
    renderGoods();
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(goodsFixture.name);
    const article = screen.getByRole('article');
    for (const fact of ['咒术回战', '五条悟', '吧唧']) expect(article.textContent).toContain(fact);
    expect(article.textContent).toContain('¥35.00');
    expect(article.textContent).toContain('状态：出');
    expect(article.textContent).toContain(goodsFixture.owner.nickname);
    const counts = within(screen.getByRole('list', { name: '互动数据' }));
    expect(counts.getByText('1.2万')).toBeDefined();
    expect(counts.getByText('87')).toBeDefined();
    const text = screen.getByText(/全新未拆/);
    expect(text.querySelectorAll('br')).toHaveLength(3);
    const tags = within(screen.getByRole('list', { name: '标签' })).getAllByRole('listitem');
    expect(tags.map((tag) => tag.textContent)).toEqual(
      ['#咒术回战', '#五条悟', '#吧唧'].map((tag) => `${tag}，在谷圈 App 中查看`),
    );
    expect(article.textContent).toContain('发布于 2025年11月2日');
    expect(screen.getByRole('link', { name: 'App 内查看这件谷子' })).toBeDefined();
  });

  it('loads the first image at once with the preloaded srcset and sizes, the rest once the page settles', async () => {
    renderGoods();
    const gallery = await screen.findByRole('region', { name: '图片' });
    // The other images wait for the page to settle (a box with their name holds their place, and
    // gets its <img> then).
    await waitFor(() => {
      expect(gallery.querySelectorAll('img')).toHaveLength(3);
    });
    const images = within(gallery).getAllByRole('img');
    expect(images).toHaveLength(3);
    const [first, ...rest] = images;
    expect(first?.getAttribute('srcset')).toBe(slotSrcSet(first0(), HERO_SLOT));
    expect(first?.getAttribute('sizes')).toBe(HERO_SLOT.sizes);
    expect(first?.getAttribute('loading')).toBe('eager');
    rest.forEach((box, index) => {
      const img = box.querySelector('img');
      expect(img?.getAttribute('srcset')).toBe(
        slotSrcSet(at(goodsFixture.images, index + 1), HERO_SLOT),
      );
      expect(img?.hasAttribute('fetchpriority')).toBe(false);
    });
    // The third image has no description: it gets one.
    expect(within(gallery).getByRole('img', { name: `${goodsFixture.name}的第 3 张图片` })).toBe(
      images[2],
    );
    expect(gallery.textContent).toContain('1/3');
  });

  it('shows no price when none is set, in English too', async () => {
    renderGoods({ ...goodsFixture, priceFen: null, character: null, status: 'wanted' }, 'en');
    const article = await screen.findByRole('article');
    expect(article.textContent).toContain('No price set');
    expect(article.textContent).not.toContain('¥');
    expect(article.textContent).toContain('Status：Wanted');
    expect(article.textContent).not.toContain('Character');
  });

  it('opens the full-screen viewer on a tap, and Back closes it without reloading the goods', async () => {
    const { router, loader } = renderGoods();
    const slides = await screen.findAllByRole('button', { name: /查看大图/ });
    fireEvent.click(at(slides, 1));
    const dialog = await screen.findByRole('dialog', { name: '大图查看' });
    expect(dialog.textContent).toContain('2 / 3');
    expect(router.state.historyAction).toBe('PUSH');
    await act(() => router.navigate(-1));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(loader).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(goodsFixture.name);
  });

  it('closes the viewer with its close button by going back', async () => {
    const { router, loader } = renderGoods();
    fireEvent.click(at(await screen.findAllByRole('button', { name: /查看大图/ }), 0));
    fireEvent.click(await screen.findByRole('button', { name: '关闭大图' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(router.state.historyAction).toBe('POP');
    expect(loader).toHaveBeenCalledTimes(1);
  });
});
