import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Goods } from '@guquan/contract/share';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { GoodsView } from '../views/goods-view';
import type { LoadedShare } from '../share-types';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { SharePage } from './share-page';

beforeEach(stubLayoutApis);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderWith(
  result: LoadedShare<'goods'> | Promise<LoadedShare<'goods'>>,
  language: 'zh-CN' | 'en' = 'zh-CN',
) {
  return renderShareRoute({
    element: <SharePage kind="goods">{(item: Goods) => <GoodsView goods={item} />}</SharePage>,
    loader: () => ({ kind: 'goods', result }),
    language,
  });
}

/** What every state keeps: the app bar, a way to open or get the app, the official website. */
function expectWayOut() {
  expect(screen.getByRole('complementary', { name: '谷圈' })).toBeDefined();
  expect(screen.getByRole('button', { name: '打开谷圈 App' })).toBeDefined();
  expect(screen.getByRole('link', { name: '前往谷圈官网' }).getAttribute('href')).toBe(
    '/anime_merch_web/website',
  );
}

describe('SharePage states', () => {
  it.each([
    ['not_found', '这件谷子不存在', '404'],
    ['removed', '这件谷子已被删除', '410'],
    ['private', '这件谷子仅作者自己可见', '403'],
    ['invalid_id', '分享链接不完整', '400'],
  ] as const)('%s: says so, and keeps the way to the app', async (state, heading, emblem) => {
    renderWith({ state });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(heading);
    expect(screen.getByRole('main').textContent).toContain(emblem);
    expect(screen.queryByRole('button', { name: '重试' })).toBeNull();
    expectWayOut();
  });

  it('speaks English too', async () => {
    renderWith({ state: 'removed' }, 'en');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'This item has been removed',
    );
  });

  it('shows the skeleton while the item loads, then the item', async () => {
    let resolve: (value: LoadedShare<'goods'>) => void = () => undefined;
    renderWith(
      new Promise((done) => {
        resolve = done;
      }),
    );
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe('正在加载…');
    expect(status.parentElement?.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    // The app bar is there at once.
    expect(screen.getByRole('link', { name: '打开' })).toBeDefined();
    await act(async () => {
      resolve({ state: 'ok', item: goodsFixture });
      await Promise.resolve();
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(goodsFixture.name);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('after a network failure, retry fetches the item again and shows it', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify(goodsFixture), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWith({ state: 'network' });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('加载失败');
    expectWayOut();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '重试' }));
      await Promise.resolve();
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(goodsFixture.name);
    expect(fetchMock).toHaveBeenCalledWith(
      '/anime_merch_web/api/v1/goods/goodsAAAAAAAAAA1',
      expect.anything(),
    );
  });

  it('a retry that fails again says so again', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('offline'))),
    );
    renderWith({ state: 'network' });
    const retry = await screen.findByRole('button', { name: '重试' });
    await act(async () => {
      fireEvent.click(retry);
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(within(screen.getByRole('main')).getByRole('button', { name: '重试' })).toBeDefined();
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('加载失败');
  });
});
