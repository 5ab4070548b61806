import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HYDRATION_DATA_ID } from '../../../lib/routing/rendered-location';

const taps = vi.hoisted(() => ({ openInApp: vi.fn(), getApp: vi.fn() }));
const views = vi.hoisted(() => ({ reportView: vi.fn() }));
const images = vi.hoisted(() => ({ startDeferredImages: vi.fn() }));
vi.mock('../../../lib/dom/deferred-images', () => images);
vi.mock('../open-in-app/app-taps', () => taps);
vi.mock('../../../lib/funnel/report-view', () => views);

const GOODS = '/anime_merch_web/AppShare/goodsShare';
const ID = 'XT9gwR1a_mH_vtRA';

/** The server's page for `rendered`, at the browser's address `here`. */
function serverPage({ here = `${GOODS}?id=${ID}`, rendered = `?id=${ID}` } = {}) {
  window.history.replaceState(null, '', here);
  document.documentElement.removeAttribute('data-app-start');
  document.documentElement.removeAttribute('data-app-bar');
  document.body.innerHTML = `
    <div id="root"><main>
      <h1>Goods title</h1>
      <a href="https://link.example/goods/${ID}" data-app-tap="open">Open</a>
      <a href="/anime_merch_web/website#download" data-app-tap="get">Get</a>
      <aside class="bar"><button type="button" data-app-bar-dismiss>Close</button></aside>
      <button type="button">More</button>
      <a href="${GOODS}?id=served&amp;lang=en" hreflang="en" data-reload-document>English</a>
      <template data-share-view="${ID}"></template>
    </main></div>
    <script type="application/json" id="${HYDRATION_DATA_ID}">${JSON.stringify({
      state: {},
      location: { pathname: GOODS, search: rendered },
    })}</script>`;
}

/** A fresh start-up script (its module state: the app's start is once per page). */
async function startPage(startApp: () => Promise<unknown>) {
  vi.resetModules();
  const [{ startPage: start }, { announceAppStarted }] = await Promise.all([
    import('./share-start'),
    import('../../../lib/app-start/app-started'),
  ]);
  start(startApp);
  return { announceAppStarted };
}

const appStart = () => document.documentElement.dataset.appStart;

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

beforeEach(() => {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
  taps.openInApp.mockReset();
  taps.getApp.mockReset();
  views.reportView.mockReset();
  images.startDeferredImages.mockReset();
});

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
  sessionStorage.clear();
});

describe('a share page before React', () => {
  it('counts the view and waits for the visitor’s intent before it starts the app', async () => {
    serverPage();
    const startApp = vi.fn(() => Promise.resolve());
    const { announceAppStarted } = await startPage(startApp);
    expect(views.reportView).toHaveBeenCalledExactlyOnceWith('goods', ID);
    expect(images.startDeferredImages).toHaveBeenCalledExactlyOnceWith(
      document.getElementById('root'),
    );
    expect(startApp).not.toHaveBeenCalled();
    expect(appStart()).toBe('on-intent');

    document.body.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, key: 'Shift' }));
    expect(startApp).toHaveBeenCalledOnce();
    expect(appStart()).toBe('starting');
    announceAppStarted({ navigate: vi.fn() });
    await vi.waitFor(() => {
      expect(appStart()).toBe('started');
    });
  });

  it('opens the app from a tap on “open” with the tap code, before React, and the app starts', async () => {
    serverPage();
    const startApp = vi.fn(() => Promise.resolve());
    await startPage(startApp);
    const open = document.querySelector<HTMLAnchorElement>('[data-app-tap="open"]');
    open?.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    open?.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(taps.openInApp).toHaveBeenCalledOnce();
    const [page, target] = taps.openInApp.mock.calls[0] as [{ title: string }, unknown];
    expect(target).toEqual({ kind: 'goods', id: ID, image: 0 });
    expect(page.title).toBe('Goods title');
    expect(startApp).toHaveBeenCalledOnce();

    const get = document.querySelector('[data-app-tap="get"]');
    get?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(taps.getApp).toHaveBeenCalledOnce();
  });

  it('closes the app bar from a tap before React, for the tab, without holding the tap', async () => {
    serverPage();
    const startApp = vi.fn(() => Promise.resolve());
    await startPage(startApp);
    expect(document.documentElement.dataset.appBar).toBeUndefined();
    const close = document.querySelector('[data-app-bar-dismiss]');
    close?.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    close?.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(document.documentElement.dataset.appBar).toBe('dismissed');
    const { isAppBarDismissed } = await import('../open-in-app/dismissed-store');
    expect(isAppBarDismissed(), 'what the app reads once it is here').toBe(true);
    expect(taps.openInApp).not.toHaveBeenCalled();
  });

  it('links the language switch to this address (a page served for many has another)', async () => {
    serverPage({ here: `${GOODS}?id=${ID}&from=timeline` });
    await startPage(() => Promise.resolve());
    const link = document.querySelector<HTMLAnchorElement>('a[hreflang]');
    expect(link?.getAttribute('href')).toBe(`${GOODS}?id=${ID}&from=timeline&lang=en`);
  });

  it('hides the app bar closed earlier in the tab at once', async () => {
    sessionStorage.setItem('guquan.share.appBarDismissed', '1');
    serverPage();
    await startPage(() => Promise.resolve());
    expect(document.documentElement.dataset.appBar).toBe('dismissed');
  });

  it('leaves a tap the app already handled alone', async () => {
    serverPage();
    await startPage(() => Promise.resolve());
    const open = document.querySelector('[data-app-tap="open"]');
    open?.addEventListener('click', (event) => {
      event.preventDefault();
    });
    open?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    // The start-up script listens in the capture phase: a page's own handler comes after it. It
    // is the app's once the app is here (start-on-intent.ts stops listening then).
    expect(taps.openInApp).toHaveBeenCalledOnce();
  });

  it.each([
    ['a return from the link domain', { here: `${GOODS}?id=${ID}&app=missing` }],
    ['an address moved before it ran', { here: `${GOODS}?id=other` }],
  ])('starts the app at once on %s', async (_, place) => {
    serverPage(place);
    const startApp = vi.fn(() => Promise.resolve());
    await startPage(startApp);
    expect(startApp).toHaveBeenCalledOnce();
    expect(appStart()).toBe('starting');
  });

  it.each([
    [
      'a desktop browser (its QR code)',
      'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36',
    ],
    ['WeChat (its share card and open tag)', `${IPHONE} MicroMessenger/8.0.40`],
  ])('starts the app at once in %s', async (_, userAgent) => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
    serverPage();
    const startApp = vi.fn(() => Promise.resolve());
    await startPage(startApp);
    expect(startApp).toHaveBeenCalledOnce();
  });

  it('starts the app when the address changes before the visitor acts', async () => {
    serverPage();
    const startApp = vi.fn(() => Promise.resolve());
    await startPage(startApp);
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(startApp).toHaveBeenCalledOnce();
  });

  it('leaves a page that is not a share page to the app', async () => {
    serverPage({ here: '/anime_merch_web/website' });
    const startApp = vi.fn(() => Promise.resolve());
    await startPage(startApp);
    expect(startApp).toHaveBeenCalledOnce();
    expect(views.reportView).not.toHaveBeenCalled();
  });
});
