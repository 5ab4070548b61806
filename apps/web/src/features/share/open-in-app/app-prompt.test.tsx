import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { download } from '@content/site.json';
import type { ClientInfo } from '@guquan/contract/client-info';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { GoodsView } from '../views/goods-view';
import { SharePage } from '../page/share-page';
import {
  renderShareRoute,
  stubLayoutApis,
  TEST_LINK_ORIGIN,
} from '../../../test-support/share-route';
import { appTapCode } from './app-taps-on-demand';
import { browserLocation } from './browser-location';
import { RETURN_SPOT_KEY } from './return-spot';
import { useAppPrompt } from './app-prompt';
import { STORE_TOAST_MS } from './app-taps';
import { EVENTUALLY } from '../../../test-support/eventually';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

let assign: ReturnType<typeof vi.fn<(href: string) => void>>;
/** What the page wrote to the clipboard, once its ClipboardItem's text has resolved. */
let clipboardText: Promise<string> | undefined;
let mints: { url: string; body: unknown }[];

/** The browser's Clipboard API as Safari and Chrome have it: a ClipboardItem of promises. */
class FakeClipboardItem {
  constructor(readonly items: Record<string, Promise<Blob>>) {}
}

beforeEach(() => {
  stubLayoutApis();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  assign = vi.fn<(href: string) => void>();
  vi.spyOn(browserLocation, 'assign').mockImplementation(assign);
  clipboardText = undefined;
  mints = [];
  vi.stubGlobal('ClipboardItem', FakeClipboardItem);
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      write: (items: FakeClipboardItem[]) => {
        const blob = items[0]?.items['text/plain'];
        clipboardText = blob?.then((value) => value.text());
        return clipboardText?.then(() => undefined) ?? Promise.resolve();
      },
    },
  });
  mintAnswers(201, {
    code: 'AB12CD34EF56',
    link: `${TEST_LINK_ORIGIN}/goods/goodsAAAAAAAAAA1?image=0`,
    expiresAt: '2026-12-01T00:00:00.000Z',
  });
});

function mintAnswers(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      mints.push({ url, body: JSON.parse(init?.body as string) as unknown });
      return Promise.resolve(new Response(JSON.stringify(body), { status }));
    }),
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'clipboard');
});

function setUserAgent(userAgent: string) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
}

async function renderGoods(client: ClientInfo, url?: string) {
  const view = renderShareRoute({
    element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
    loader: () => ({ kind: 'goods', result: { state: 'ok', item: goodsFixture } }),
    client,
    url,
  });
  await screen.findByRole('heading', { level: 1 });
  // The page's effects (its title for the share text among them) before any tap: a commit outside
  // act leaves them to the scheduler, which a tap straight after the heading appears could beat.
  await act(() => vi.advanceTimersByTimeAsync(0));
  return view;
}

describe('open in app', () => {
  it('iOS: opens the Universal Link of the same goods and image; its link domain is the fallback', async () => {
    setUserAgent(IPHONE);
    await renderGoods({ platform: 'ios', inAppBrowser: 'none' });
    // The visitor swiped to the second image (the gallery reports the scroll position).
    const track = screen.getByRole('region', { name: '图片' }).firstElementChild as HTMLElement;
    Object.defineProperty(track, 'clientWidth', { value: 375, configurable: true });
    track.scrollLeft = 375;
    fireEvent.scroll(track);
    const open = screen.getByRole('link', { name: 'App 内查看这件谷子' });
    // The link in the server's HTML, for a tap before the code runs, follows the image too.
    expect(open.getAttribute('href')).toBe(`${TEST_LINK_ORIGIN}/goods/goodsAAAAAAAAAA1?image=1`);
    fireEvent.click(open);
    expect(assign).toHaveBeenCalledWith(`${TEST_LINK_ORIGIN}/goods/goodsAAAAAAAAAA1?image=1`);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    // No timer to the store: a missing app brings the visitor back through the link domain.
    expect(assign).toHaveBeenCalledTimes(1);
    expect(clipboardText).toBeUndefined();
  });

  it('Android Chrome: opens the App Link from the top bar', async () => {
    setUserAgent(ANDROID_CHROME);
    await renderGoods({ platform: 'android', inAppBrowser: 'none' });
    fireEvent.click(screen.getByRole('link', { name: '打开' }));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(`${TEST_LINK_ORIGIN}/goods/goodsAAAAAAAAAA1?image=0`);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it('inside WeChat: shows the open-in-browser guide with the copy button instead', async () => {
    setUserAgent(`${IPHONE} MicroMessenger/8.0.50`);
    await renderGoods({ platform: 'ios', inAppBrowser: 'wechat' });
    fireEvent.click(screen.getByRole('link', { name: 'App 内查看这件谷子' }));
    const dialog = await screen.findByRole('dialog', { name: '请在浏览器中打开' });
    expect(dialog.textContent).toContain('微信内无法直接打开谷圈 App');
    expect(screen.getByRole('button', { name: '复制链接' })).toBeDefined();
    expect(assign).not.toHaveBeenCalled();
  });

  it('inside QQ on iPhone (Universal Links blocked): the scheme, then the App Store, with the share text copied by the same tap', async () => {
    setUserAgent(`${IPHONE} QQ/8.9.80.602 V1_IPH_SQ_8.9.80_1_APP_A`);
    await renderGoods({ platform: 'ios', inAppBrowser: 'qq' });
    fireEvent.click(screen.getByRole('link', { name: 'App 内查看这件谷子' }));
    expect(assign).toHaveBeenCalledWith('guquan://goods/goodsAAAAAAAAAA1?image=0');
    // The clipboard write began within the tap; its text follows the server's code.
    expect(clipboardText).toBeDefined();
    await expect(clipboardText).resolves.toBe(
      `【谷圈】${goodsFixture.name} ￥AB12CD34EF56￥ ${TEST_LINK_ORIGIN}/goods/goodsAAAAAAAAAA1?image=0`,
    );
    expect(mints).toEqual([
      {
        url: '/anime_merch_web/api/v1/app-links/handoffs',
        body: { target: { kind: 'goods', id: 'goodsAAAAAAAAAA1', image: 0 } },
      },
    ]);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    // Before the store: a toast says the code was copied, long enough to read it.
    await screen.findByText('已复制分享口令，马上前往下载…');
    expect(assign).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(STORE_TOAST_MS));
    await vi.waitFor(() => {
      expect(assign).toHaveBeenLastCalledWith(download.ios.url);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('inside Weibo on iPhone (no app links, but the App Store opens): straight to the store, after the copy', async () => {
    setUserAgent(`${IPHONE} Weibo (iPhone14,5__weibo__14.6.0__iphone__os17.5)`);
    await renderGoods({ platform: 'ios', inAppBrowser: 'weibo' });
    fireEvent.click(screen.getByRole('link', { name: 'App 内查看这件谷子' }));
    await screen.findByText('已复制分享口令，马上前往下载…');
    await act(() => vi.advanceTimersByTimeAsync(STORE_TOAST_MS));
    await vi.waitFor(() => {
      expect(assign).toHaveBeenCalledWith(download.ios.url);
    });
    expect(assign).toHaveBeenCalledTimes(1);
    await expect(clipboardText).resolves.toContain('￥AB12CD34EF56￥');
  });

  it('on a computer: goes to the website’s download section, keeping the language', async () => {
    setUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0 Safari/537.36');
    const { router } = await renderGoods(
      { platform: 'other', inAppBrowser: 'none' },
      '/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=zh-CN',
    );
    fireEvent.click(screen.getByRole('link', { name: 'App 内查看这件谷子' }));
    await vi.waitFor(() => {
      expect(router.state.location.pathname).toBe('/anime_merch_web/website');
    }, EVENTUALLY);
    expect(router.state.location.hash).toBe('#download');
    expect(router.state.location.search).toBe('?lang=zh-CN');
    expect(assign).not.toHaveBeenCalled();
    expect(clipboardText).toBeUndefined();
  });
});

describe('when the link domain says the app is missing', () => {
  const APP_MISSING = '/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=zh-CN&app=missing&image=2';

  afterEach(() => {
    sessionStorage.clear();
  });

  it('shows the sheet: no app, the item after the install, one tap to the store; the page keeps its links', async () => {
    setUserAgent(IPHONE);
    await renderGoods({ platform: 'ios', inAppBrowser: 'none' }, APP_MISSING);
    const sheet = await screen.findByRole('dialog', { name: '没有找到谷圈 App' });
    expect(sheet.textContent).toContain('下载安装后打开谷圈，这件谷子会在那里等你。');
    expect(sheet.textContent).toContain('点击下载时会复制分享口令');
    expect(
      within(sheet).getByRole('link', { name: '去 App Store 下载' }).getAttribute('href'),
    ).toBe(download.ios.url);
    expect(
      within(sheet).getByRole('link', { name: '已安装？在 App 中打开' }).getAttribute('href'),
    ).toBe('guquan://goods/goodsAAAAAAAAAA1?image=2');
    // Behind it, the page offers the app first, as links that work before the code runs.
    expect(
      screen.getByRole('link', { name: '下载谷圈 App', hidden: true }).getAttribute('href'),
    ).toBe('/anime_merch_web/website?lang=zh-CN#download');
    expect(screen.queryByRole('link', { name: 'App 内查看这件谷子', hidden: true })).toBeNull();
    expect(screen.getByText('下载时会复制分享口令，安装后打开谷圈即可回到这里')).toBeDefined();
    expect(screen.getByRole('heading', { level: 1, hidden: true }).textContent).toBe(
      goodsFixture.name,
    );
    fireEvent.click(within(sheet).getByRole('button', { name: '以后再说' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('puts the visitor back where "open" left them', async () => {
    setUserAgent(IPHONE);
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    sessionStorage.setItem(
      RETURN_SPOT_KEY,
      JSON.stringify({ item: 'goods:goodsAAAAAAAAAA1', scrollY: 640, image: 2 }),
    );
    await renderGoods({ platform: 'ios', inAppBrowser: 'none' }, APP_MISSING);
    await screen.findByRole('dialog');
    expect(scrollTo).toHaveBeenCalledWith({ top: 640, behavior: 'instant' });
    expect(sessionStorage.getItem(RETURN_SPOT_KEY)).toBeNull();
  });

  it('iOS: the store copies the share text with the server’s code, says so, then opens the App Store', async () => {
    setUserAgent(IPHONE);
    await renderGoods({ platform: 'ios', inAppBrowser: 'none' }, APP_MISSING);
    const sheet = await screen.findByRole('dialog');
    fireEvent.click(within(sheet).getByRole('link', { name: '去 App Store 下载' }));
    expect(clipboardText).toBeDefined();
    await expect(clipboardText).resolves.toMatch(
      /^【谷圈】咒术回战 五条悟 吧唧 第二弹 闪粉款 ￥AB12CD34EF56￥ /,
    );
    expect(mints[0]?.body).toEqual({ target: { kind: 'goods', id: 'goodsAAAAAAAAAA1', image: 2 } });
    const toast = await screen.findByText('已复制分享口令，马上前往下载…');
    expect(toast.getAttribute('role')).toBe('status');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(STORE_TOAST_MS));
    await vi.waitFor(() => {
      expect(assign).toHaveBeenCalledWith(download.ios.url);
    });
  });

  it('Android: offers the stores (the APK last); without a code (the server is away) the text carries the link alone', async () => {
    setUserAgent(ANDROID_CHROME);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await renderGoods({ platform: 'android', inAppBrowser: 'none' }, APP_MISSING);
    const sheet = await screen.findByRole('dialog');
    const stores = within(sheet).getAllByRole('listitem');
    expect(stores.map((store) => store.textContent)).toEqual([
      '在应用宝下载',
      '直接下载安装包（APK）',
    ]);
    fireEvent.click(within(sheet).getByRole('link', { name: '直接下载安装包（APK）' }));
    await expect(clipboardText).resolves.toMatch(
      new RegExp(
        `^【谷圈】咒术回战 五条悟 吧唧 第二弹 闪粉款 ${TEST_LINK_ORIGIN}/goods/goodsAAAAAAAAAA1\\?image=\\d$`,
      ),
    );
    await act(() => vi.advanceTimersByTimeAsync(STORE_TOAST_MS));
    await vi.waitFor(() => {
      expect(assign).toHaveBeenCalledWith(download.android.url);
    });
  });

  it('an answer that is not a code is not trusted: the link alone', async () => {
    setUserAgent(IPHONE);
    mintAnswers(201, { code: '<b>x</b>', link: 'https://evil.example/' });
    await renderGoods({ platform: 'ios', inAppBrowser: 'none' }, APP_MISSING);
    const sheet = await screen.findByRole('dialog');
    fireEvent.click(within(sheet).getByRole('link', { name: '去 App Store 下载' }));
    const text = await clipboardText;
    expect(text).not.toContain('￥');
    expect(text).not.toContain('evil');
  });

  it('a removed item’s sheet promises nothing about coming back to it', async () => {
    setUserAgent(IPHONE);
    renderShareRoute({
      element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
      loader: () => ({ kind: 'goods', result: { state: 'removed' } }),
      client: { platform: 'ios', inAppBrowser: 'none' },
      url: APP_MISSING,
    });
    const sheet = await screen.findByRole('dialog', { name: '没有找到谷圈 App' });
    expect(sheet.textContent).toContain('下载安装谷圈，看看同好们的更多谷子。');
    expect(sheet.textContent).not.toContain('等你');
    // Nor does the bar behind it.
    expect(screen.getByText('还没有安装？下载谷圈 App')).toBeDefined();
    expect(screen.queryByText('还没有安装？下载后回到这里')).toBeNull();
  });
});

/** Another tap of the page (a like, the owner…) that opens the app at a target of its own. */
function OtherTap() {
  const { openInApp } = useAppPrompt();
  return (
    <button
      type="button"
      onClick={(event) => {
        openInApp({ kind: 'note', id: 'noteBBBBBBBBBBB1' }, event);
      }}
    >
      other tap
    </button>
  );
}

describe('openInApp, for any tap', () => {
  function renderWithOtherTap(url?: string) {
    renderShareRoute({
      element: (
        <SharePage kind="goods">
          {(item) => (
            <>
              <GoodsView goods={item} />
              <OtherTap />
            </>
          )}
        </SharePage>
      ),
      loader: () => ({ kind: 'goods', result: { state: 'ok', item: goodsFixture } }),
      client: { platform: 'ios', inAppBrowser: 'none' },
      url,
    });
  }

  it('opens the app at the tapped target', async () => {
    setUserAgent(IPHONE);
    renderWithOtherTap();
    fireEvent.click(await screen.findByRole('button', { name: 'other tap' }));
    expect(assign).toHaveBeenCalledWith(`${TEST_LINK_ORIGIN}/note/noteBBBBBBBBBBB1`);
  });

  it('shows the sheet where the app is known to be missing, and its store copies that target', async () => {
    setUserAgent(IPHONE);
    renderWithOtherTap('/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=zh-CN&app=missing');
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: '以后再说' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'other tap' }));
    const sheet = await screen.findByRole('dialog');
    expect(assign).not.toHaveBeenCalled();
    expect(sheet.textContent).toContain('这篇笔记');
    fireEvent.click(within(sheet).getByRole('link', { name: '去 App Store 下载' }));
    await vi.waitFor(() => {
      expect(mints[0]?.body).toEqual({ target: { kind: 'note', id: 'noteBBBBBBBBBBB1' } });
    }, EVENTUALLY);
  });
});

describe('a tap before the tap code is here (it loads once the page has hydrated)', () => {
  /** Whether the page took over each click (`defaultPrevented`), seen after React's handlers. */
  let prevented: boolean[];
  let beacons: string[];
  let stopNavigation: (event: Event) => void;
  let tapCodeHere: { mockRestore: () => void };
  let tapCodeLoad: { mock: { calls: unknown[] } };

  beforeEach(() => {
    tapCodeHere = vi.spyOn(appTapCode, 'get').mockReturnValue(undefined);
    tapCodeLoad = vi.spyOn(appTapCode, 'load').mockReturnValue(new Promise(() => undefined));
    prevented = [];
    beacons = [];
    // After the page's handlers: note what they did, then keep jsdom from navigating.
    stopNavigation = (event) => {
      prevented.push(event.defaultPrevented);
      event.preventDefault();
    };
    document.addEventListener('click', stopNavigation);
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: (_url: string, body: string) => {
        beacons.push(body);
        return true;
      },
    });
  });

  afterEach(() => {
    document.removeEventListener('click', stopNavigation);
    Reflect.deleteProperty(navigator, 'sendBeacon');
  });

  async function openTaps(): Promise<number> {
    await act(() => vi.advanceTimersByTimeAsync(1000));
    return beacons.filter((body) => body.includes('open_tapped')).length;
  }

  it('"open" follows its link (no preventDefault, nothing counted); once the code is here, the plan', async () => {
    setUserAgent(ANDROID_CHROME);
    await renderGoods({ platform: 'android', inAppBrowser: 'none' });
    const open = screen.getByRole('link', { name: '打开' });
    fireEvent.click(open);
    expect(prevented).toEqual([false]);
    expect(assign).not.toHaveBeenCalled();
    expect(tapCodeLoad.mock.calls.length).toBeGreaterThan(0);
    // The link domain counts the tap its link brings (its fallback): the page does not too.
    expect(await openTaps()).toBe(0);

    tapCodeHere.mockRestore();
    fireEvent.click(open);
    expect(prevented).toEqual([false, true]);
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(`${TEST_LINK_ORIGIN}/goods/goodsAAAAAAAAAA1?image=0`);
    expect(await openTaps()).toBe(1);
  });

  it('"get the app" follows its link to the download section', async () => {
    setUserAgent(IPHONE);
    await renderGoods(
      { platform: 'ios', inAppBrowser: 'none' },
      '/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=zh-CN&app=missing',
    );
    fireEvent.click(screen.getByRole('link', { name: '下载谷圈 App' }));
    expect(prevented).toEqual([false]);
    expect(assign).not.toHaveBeenCalled();
    expect(clipboardText).toBeUndefined();
    expect(beacons.filter((body) => body.includes('store_fallback'))).toEqual([]);
  });

  it('a tap on something that is not a link goes where its link would: the Universal Link', async () => {
    setUserAgent(IPHONE);
    renderShareRoute({
      element: (
        <SharePage kind="goods">
          {(item) => (
            <>
              <GoodsView goods={item} />
              <OtherTap />
            </>
          )}
        </SharePage>
      ),
      loader: () => ({ kind: 'goods', result: { state: 'ok', item: goodsFixture } }),
      client: { platform: 'ios', inAppBrowser: 'none' },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'other tap' }));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith(`${TEST_LINK_ORIGIN}/note/noteBBBBBBBBBBB1`);
    expect(await openTaps()).toBe(0);
  });
});
