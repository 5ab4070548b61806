import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Poster } from '@guquan/contract/poster';
import type { ClientInfo } from '@guquan/contract/client-info';
import { EVENTS_PATH } from '@guquan/contract/funnel-events';
import { sendQueuedShareEvents } from '../../../lib/funnel/report-share-event';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { PosterAction } from './poster-action';

const POSTER: Poster = {
  url: '/anime_merch_web/pictures/goods/goodsAAAAAAAAAA1/poster.zh-CN.0123456789abcdefghijkl.jpg',
  width: 1080,
  height: 1440,
  alt: '「吧唧」的分享海报：¥35.00 · 出，谷主 五条悟的猫，附可扫码查看的二维码',
};

beforeEach(stubLayoutApis);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function answer(body: unknown, status = 200) {
  const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status })));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderAction(client?: ClientInfo, language: 'zh-CN' | 'en' = 'zh-CN') {
  return renderShareRoute({
    element: <PosterAction kind="goods" id="goodsAAAAAAAAAA1" />,
    language,
    client,
  });
}

async function openPoster(name = '分享海报') {
  fireEvent.click(await screen.findByRole('button', { name }));
  return screen.findByRole('dialog', { name });
}

describe('分享海报', () => {
  it('counts the poster opened in the share funnel, once per tap', async () => {
    answer(POSTER);
    const beacons: [string, string][] = [];
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: (url: string, body: string) => {
        beacons.push([url, body]);
        return true;
      },
    });
    try {
      renderAction();
      await openPoster();
      sendQueuedShareEvents();
      expect(beacons).toEqual([
        [
          EVENTS_PATH,
          JSON.stringify({
            events: [{ event: 'poster_opened', kind: 'goods', id: 'goodsAAAAAAAAAA1' }],
          }),
        ],
      ]);
    } finally {
      Reflect.deleteProperty(navigator, 'sendBeacon');
    }
  });

  it('opens the poster full screen: asked for in the page’s language, with its alt text and a save button', async () => {
    const fetchMock = answer(POSTER);
    renderAction();
    const dialog = await openPoster();
    expect(fetchMock).toHaveBeenCalledWith(
      '/anime_merch_web/api/v1/goods/goodsAAAAAAAAAA1/poster?lang=zh-CN',
      expect.anything(),
    );
    const image = await screen.findByRole('img', { name: POSTER.alt });
    expect(image.getAttribute('src')).toBe(POSTER.url);
    expect(screen.getByRole('status').textContent).toBe('正在生成海报…');
    fireEvent.load(image);
    const save = await screen.findByRole('link', { name: '保存图片' });
    expect(save.getAttribute('href')).toBe(POSTER.url);
    expect(save.getAttribute('download')).toBe('guquan-goods-goodsAAAAAAAAAA1.jpg');
    expect(dialog.textContent).toContain('保存后可分享到朋友圈');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('inside WeChat, which downloads nothing: press and hold the picture instead', async () => {
    answer(POSTER);
    renderAction({ platform: 'ios', inAppBrowser: 'wechat' });
    const dialog = await openPoster();
    fireEvent.load(await screen.findByRole('img', { name: POSTER.alt }));
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(dialog.textContent).toContain('长按图片保存到手机');
    expect(screen.queryByRole('link', { name: '保存图片' })).toBeNull();
  });

  it('in English too', async () => {
    const fetchMock = answer({ ...POSTER, url: POSTER.url.replace('zh-CN', 'en') });
    renderAction(undefined, 'en');
    await openPoster('Share poster');
    expect(fetchMock).toHaveBeenCalledWith(
      '/anime_merch_web/api/v1/goods/goodsAAAAAAAAAA1/poster?lang=en',
      expect.anything(),
    );
    fireEvent.load(await screen.findByRole('img'));
    expect(
      (await screen.findByRole('link', { name: 'Save picture' })).getAttribute('href'),
    ).toContain('/poster.en.');
  });

  it('a poster that cannot be had says so and tries again; closing gives the focus back', async () => {
    answer({ error: { code: 'removed', message: 'gone' } }, 410);
    renderAction();
    await openPoster();
    expect((await screen.findByRole('alert')).textContent).toContain('海报暂时生成不了');
    answer(POSTER);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '重试' }));
      await Promise.resolve();
    });
    const image = await screen.findByRole('img', { name: POSTER.alt });
    // The picture itself failing (too many new pictures, offline) is a failure too.
    fireEvent.error(image);
    expect(await screen.findByRole('alert')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '分享海报' }));
  });
});
