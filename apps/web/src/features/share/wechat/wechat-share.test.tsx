import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WECHAT_JS_CONFIG_PATH } from '@guquan/contract/wechat';
import { WECHAT_JS_SDK_URL } from '@guquan/contract/wechat-page';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { pictureUrl, squareContent } from '@guquan/contract/share-pictures';
import { GoodsView } from '../views/goods-view';
import { browserLocation } from '../open-in-app/browser-location';
import { SharePage } from '../page/share-page';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import type { Wx } from './wechat-js-sdk';
import { EVENTUALLY } from '../../../test-support/eventually';

const PAGE = '/anime_merch_web/AppShare/goodsShare?id=goodsAAAAAAAAAA1&from=singlemessage';
const CONFIG = {
  appId: 'wx1234567890abcdef',
  openAppId: 'wxfedcba0987654321',
  timestamp: 1_763_892_000,
  nonceStr: 'Wm3WZYTPz0wzccnW',
  signature: '0f9de62fce790f9a083d5c99e95740ceb90c27ed',
};

/** A stand-in for WeChat's `wx`: records every call; the test decides ready or error. */
function fakeWx() {
  let onReady: () => void = () => undefined;
  let onError: (result: { errMsg?: string }) => void = () => undefined;
  const wx = {
    config: vi.fn<Wx['config']>(),
    ready: vi.fn<Wx['ready']>((callback) => {
      onReady = callback;
    }),
    error: vi.fn<Wx['error']>((callback) => {
      onError = callback;
    }),
    updateAppMessageShareData: vi.fn<Wx['updateAppMessageShareData']>(),
    updateTimelineShareData: vi.fn<Wx['updateTimelineShareData']>(),
  };
  return {
    wx,
    ready: () => {
      onReady();
    },
    fail: () => {
      onError({ errMsg: 'config:invalid signature' });
      onReady();
    },
  };
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
let assign: ReturnType<typeof vi.fn<(href: string) => void>>;

beforeEach(() => {
  stubLayoutApis();
  window.history.replaceState(null, '', PAGE);
  fetchMock = vi.fn<typeof fetch>(() =>
    Promise.resolve(new Response(JSON.stringify(CONFIG), { status: 200 })),
  );
  vi.stubGlobal('fetch', fetchMock);
  assign = vi.fn<(href: string) => void>();
  vi.spyOn(browserLocation, 'assign').mockImplementation(assign);
});

afterEach(() => {
  cleanup();
  document.head.querySelectorAll('meta[name="guquan-wechat"], script').forEach((node) => {
    node.remove();
  });
  delete window.wx;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function addMarker() {
  const meta = document.createElement('meta');
  meta.name = 'guquan-wechat';
  meta.content = 'on';
  document.head.append(meta);
}

async function renderInWeChat(inAppBrowser: 'wechat' | 'none' = 'wechat') {
  renderShareRoute({
    element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
    loader: () => ({ kind: 'goods', result: { state: 'ok', item: goodsFixture } }),
    client: { platform: 'ios', inAppBrowser },
    url: '/AppShare/goodsShare?id=goodsAAAAAAAAAA1&from=singlemessage',
  });
  await screen.findByRole('heading', { level: 1 });
}

/** Waits for the page to add WeChat's script, then "loads" it with the fake. */
async function loadJsSdk(fake: ReturnType<typeof fakeWx>) {
  const script = await vi.waitFor(() => {
    const found = document.head.querySelector<HTMLScriptElement>(
      `script[src="${WECHAT_JS_SDK_URL}"]`,
    );
    if (!found) throw new Error('no script yet');
    return found;
  }, EVENTUALLY);
  window.wx = fake.wx;
  script.dispatchEvent(new Event('load'));
  await vi.waitFor(() => {
    expect(fake.wx.config).toHaveBeenCalled();
  }, EVENTUALLY);
}

const launchTags = () => document.querySelectorAll('wx-open-launch-app');

describe('WeChat on a share page', () => {
  it('asks for the signature of this exact address, configures the JS-SDK, sets the card', async () => {
    addMarker();
    await renderInWeChat();
    const fake = fakeWx();
    await loadJsSdk(fake);
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe(WECHAT_JS_CONFIG_PATH);
    expect(init?.method).toBe('POST');
    expect(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined).toEqual({
      url: `${window.location.origin}${PAGE}`,
    });
    expect(fake.wx.config).toHaveBeenCalledWith({
      debug: false,
      appId: CONFIG.appId,
      timestamp: CONFIG.timestamp,
      nonceStr: CONFIG.nonceStr,
      signature: CONFIG.signature,
      jsApiList: ['updateAppMessageShareData', 'updateTimelineShareData'],
      openTagList: ['wx-open-launch-app'],
    });
    expect(launchTags()).toHaveLength(0);
    act(() => {
      fake.ready();
    });
    const link = `${window.location.origin}/anime_merch_web/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=zh-CN`;
    // The item's first picture cut square, a JPEG at the address of that version (never WebP:
    // older WeChat shows no WebP).
    const imgUrl = `${window.location.origin}${pictureUrl(squareContent('goods', goodsFixture))}`;
    expect(imgUrl).toMatch(
      /\/anime_merch_web\/pictures\/goods\/goodsAAAAAAAAAA1\/square\.[0-9a-z]{22}\.jpg$/,
    );
    await vi.waitFor(() => {
      expect(fake.wx.updateAppMessageShareData).toHaveBeenCalledWith({
        // What was shared, by name, with the app's name: as the link preview says.
        title: `${goodsFixture.name} - 谷圈`,
        desc: '全新未拆，只拆出来拍了照。 包邮，可小刀。 同担可私，不接受换谷。',
        link,
        imgUrl,
      });
    }, EVENTUALLY);
    expect(fake.wx.updateTimelineShareData).toHaveBeenCalledWith({
      title: `${goodsFixture.name} - 谷圈`,
      link,
      imgUrl,
    });
  });

  it('lays the open tag over the bar and the main button, on the same goods and image', async () => {
    addMarker();
    await renderInWeChat();
    const fake = fakeWx();
    await loadJsSdk(fake);
    act(() => {
      fake.ready();
    });
    await vi.waitFor(() => {
      expect(launchTags()).toHaveLength(2);
    }, EVENTUALLY);
    for (const tag of launchTags()) {
      expect(tag.getAttribute('appid')).toBe(CONFIG.openAppId);
      expect(tag.getAttribute('extinfo')).toBe('guquan://goods/goodsAAAAAAAAAA1?image=0');
      expect(tag.querySelector('script[type="text/wxtag-template"]')).not.toBeNull();
    }
    // WeChat could not open the app: the guide, as before.
    act(() => {
      launchTags()[0]?.dispatchEvent(new Event('error'));
    });
    expect(await screen.findByRole('dialog', { name: '请在浏览器中打开' })).toBeDefined();
  });

  it('keeps the guide when WeChat refuses the signature', async () => {
    addMarker();
    await renderInWeChat();
    const fake = fakeWx();
    await loadJsSdk(fake);
    act(() => {
      fake.fail();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(launchTags()).toHaveLength(0);
    expect(fake.wx.updateAppMessageShareData).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('link', { name: 'App 内查看这件谷子' }));
    expect(await screen.findByRole('dialog', { name: '请在浏览器中打开' })).toBeDefined();
  });

  it('keeps the guide when our server cannot sign (WeChat down)', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ error: { code: 'wechat_unavailable', message: '' } }), {
        status: 503,
      }),
    );
    addMarker();
    await renderInWeChat();
    const fake = fakeWx();
    await loadJsSdk(fake).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.wx.config).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('link', { name: 'App 内查看这件谷子' }));
    expect(await screen.findByRole('dialog', { name: '请在浏览器中打开' })).toBeDefined();
  });

  it.each([
    ['without the settings (no marker)', 'wechat', false],
    ['outside WeChat', 'none', true],
  ] as const)('does nothing %s', async (_case, app, marker) => {
    if (marker) addMarker();
    await renderInWeChat(app);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(document.head.querySelector(`script[src="${WECHAT_JS_SDK_URL}"]`)).toBeNull();
  });
});
