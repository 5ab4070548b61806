import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { download } from '@content/site.json';
import type { ClientInfo } from '../../../lib/client/client-info';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { GoodsView } from '../goods-view/goods-view';
import { SharePage } from '../share-page/share-page';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { browserLocation } from './browser-location';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

let assign: ReturnType<typeof vi.fn<(href: string) => void>>;

beforeEach(() => {
  stubLayoutApis();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  assign = vi.fn<(href: string) => void>();
  vi.spyOn(browserLocation, 'assign').mockImplementation(assign);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function setUserAgent(userAgent: string) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
}

async function renderGoods(client: ClientInfo, url?: string) {
  const view = renderShareRoute({
    element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
    loader: () => ({ kind: 'goods', result: { state: 'ok', item: goodsFixture } }),
    client,
    ...(url ? { url } : {}),
  });
  await screen.findByRole('heading', { level: 1 });
  return view;
}

describe('open in app', () => {
  it('iOS: opens the Universal Link of the same goods and image, then the App Store if still here', async () => {
    setUserAgent(IPHONE);
    await renderGoods({ platform: 'ios', inAppBrowser: 'none' });
    // The visitor swiped to the second image (the gallery reports the scroll position).
    const track = screen.getByRole('region', { name: '图片' }).firstElementChild as HTMLElement;
    Object.defineProperty(track, 'clientWidth', { value: 375, configurable: true });
    track.scrollLeft = 375;
    fireEvent.scroll(track);
    fireEvent.click(screen.getByRole('button', { name: 'App 内查看这件谷子' }));
    expect(assign).toHaveBeenCalledWith(
      'https://link.guquan.example/goods/goodsAAAAAAAAAA1?image=1',
    );
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(assign).toHaveBeenLastCalledWith(download.ios.url);
  });

  it('Android Chrome: opens an intent from the top bar; no store when the app took over', async () => {
    setUserAgent(ANDROID_CHROME);
    await renderGoods({ platform: 'android', inAppBrowser: 'none' });
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    fireEvent.click(screen.getByRole('button', { name: '打开' }));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign.mock.calls[0]?.[0]).toMatch(
      /^intent:\/\/goods\/goodsAAAAAAAAAA1\?image=0#Intent;scheme=guquan;package=com\.guquan\.app;/,
    );
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it('inside WeChat: shows the open-in-browser guide with the copy button instead', async () => {
    setUserAgent(`${IPHONE} MicroMessenger/8.0.50`);
    await renderGoods({ platform: 'ios', inAppBrowser: 'wechat' });
    fireEvent.click(screen.getByRole('button', { name: 'App 内查看这件谷子' }));
    const dialog = screen.getByRole('dialog', { name: '请在浏览器中打开' });
    expect(dialog.textContent).toContain('微信内无法直接打开谷圈 App');
    expect(screen.getByRole('button', { name: '复制链接' })).toBeDefined();
    expect(assign).not.toHaveBeenCalled();
  });

  it('inside QQ on iPhone (Universal Links blocked): the custom scheme, then the App Store', async () => {
    setUserAgent(`${IPHONE} QQ/8.9.80.602 V1_IPH_SQ_8.9.80_1_APP_A`);
    await renderGoods({ platform: 'ios', inAppBrowser: 'qq' });
    fireEvent.click(screen.getByRole('button', { name: 'App 内查看这件谷子' }));
    expect(assign).toHaveBeenCalledWith('guquan://goods/goodsAAAAAAAAAA1?image=0');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(assign).toHaveBeenLastCalledWith(download.ios.url);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('inside Weibo on iPhone (no app links, but the App Store opens): straight to the store', async () => {
    setUserAgent(`${IPHONE} Weibo (iPhone14,5__weibo__14.6.0__iphone__os17.5)`);
    await renderGoods({ platform: 'ios', inAppBrowser: 'weibo' });
    fireEvent.click(screen.getByRole('button', { name: 'App 内查看这件谷子' }));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(download.ios.url);
  });

  it('on a computer: goes to the website’s download section, keeping the language', async () => {
    setUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0 Safari/537.36');
    const { router } = await renderGoods(
      { platform: 'other', inAppBrowser: 'none' },
      '/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=zh-CN',
    );
    fireEvent.click(screen.getByRole('button', { name: 'App 内查看这件谷子' }));
    await vi.waitFor(() => {
      expect(router.state.location.pathname).toBe('/anime_merch_web/website');
    });
    expect(router.state.location.hash).toBe('#download');
    expect(router.state.location.search).toBe('?lang=zh-CN');
    expect(assign).not.toHaveBeenCalled();
  });
});
