import { act, cleanup, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { SharePage } from '../page/share-page';
import { GoodsView } from '../views/goods-view';
import * as promptStore from './prompt-store';

// The page's prompt store outlives a page only while its provider does (prompt-store.ts): these
// render the real provider, and each test's unmount (cleanup) clears the store again.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const APP_MISSING = '/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=zh-CN&app=missing';

beforeEach(() => {
  stubLayoutApis();
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

function renderGoods(url: string, strict = false) {
  const page = <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>;
  return renderShareRoute({
    element: strict ? <StrictMode>{page}</StrictMode> : page,
    loader: () => ({ kind: 'goods', result: { state: 'ok', item: goodsFixture } }),
    client: { platform: 'ios', inAppBrowser: 'none' },
    url,
  });
}

/** After the microtasks that follow an unmount (use-open-in-app.ts clears the store in one). */
function settled(): Promise<void> {
  return act(() => Promise.resolve());
}

describe("the prompt's state, kept in the page's store", () => {
  it('is cleared when the page goes, as the provider’s own state was', async () => {
    const view = renderGoods(APP_MISSING);
    await screen.findByRole('dialog', { name: '没有找到谷圈 App' });
    expect(promptStore.getSnapshot().missingApp.sheet).not.toBeNull();
    view.unmount();
    await settled();
    expect(promptStore.getSnapshot()).toBe(promptStore.EMPTY_PROMPT);
  });

  it('stays while the visitor goes to another item: the provider stays mounted', async () => {
    const { router } = renderGoods(APP_MISSING);
    await screen.findByRole('dialog', { name: '没有找到谷圈 App' });
    await act(() => router.navigate('/AppShare/goodsShare?id=goodsBBBBBBBBBB2&lang=zh-CN'));
    await settled();
    expect(router.state.location.search).toContain('goodsBBBBBBBBBB2');
    expect(screen.getByRole('dialog', { name: '没有找到谷圈 App' })).toBeDefined();
  });

  it('survives StrictMode’s rehearsal of an unmount (development)', async () => {
    renderGoods(APP_MISSING, true);
    await screen.findByRole('dialog', { name: '没有找到谷圈 App' });
    await settled();
    expect(screen.getByRole('dialog', { name: '没有找到谷圈 App' })).toBeDefined();
  });
});
