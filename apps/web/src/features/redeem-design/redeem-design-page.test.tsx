import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesignView, RedemptionResult } from '@guquan/contract/design';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { LanguageProvider } from '../../lib/i18n/language-context';
import {
  FakeAppError,
  installFakeApp,
  type FakeAnswer,
  type FakeApp,
} from '../../test-support/fake-app';
import { RedeemDesignPage } from './redeem-design-page';

const DESIGN_ID = 'A-3u4-IQxQK60Fy8';
const USER_ID = 'eqv4wOwctxOn7xAR';
const TOKEN = `h.p.${'T'.repeat(43)}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The app, as the page sees it: every message it was sent. */
function installApp(answers: Record<string, FakeAnswer>): FakeApp['calls'] {
  return installFakeApp(answers).calls;
}

const loggedIn = () => ({ token: TOKEN, userId: USER_ID });
const handshake = () => ({ bridgeVersion: 1, platform: 'ios', appVersion: '3.2.0' });

function designView(overrides: {
  balance?: number;
  price?: number;
  available?: boolean;
  redeemed?: boolean;
  pending?: boolean;
  own?: boolean;
}): DesignView {
  const price = overrides.price ?? 200;
  const available = overrides.available ?? true;
  return {
    design: {
      id: DESIGN_ID,
      title: '樱花季立牌设计图',
      designer: { id: 'Vg3PS_wn1h1T_8am', nickname: '北花', avatar: null },
      preview: available ? { id: 'PPPPPPPPPPPPPPPP', width: 720, height: 1080, alt: '' } : null,
      pricePoints: price,
      available,
      file: { format: 'psd', width: 2480, height: 3508, bytes: 46_200_000 },
      use: 'non_commercial',
    },
    viewer: {
      balance: overrides.balance ?? 500,
      redemption:
        overrides.redeemed || overrides.pending
          ? {
              id: 'RRRRRRRRRRRRRRRR',
              designId: DESIGN_ID,
              pricePoints: price,
              state: overrides.pending ? 'pending' : 'redeemed',
              requestedAt: '2025-11-10T12:00:00.000Z',
              redeemedAt: overrides.pending ? null : '2025-11-10T12:00:01.000Z',
            }
          : null,
      ownDesign: overrides.own ?? false,
    },
  };
}

const RESULT: RedemptionResult = {
  redemption: {
    id: 'RRRRRRRRRRRRRRRR',
    designId: DESIGN_ID,
    pricePoints: 200,
    state: 'redeemed',
    requestedAt: '2025-11-20T12:00:00.000Z',
    redeemedAt: '2025-11-20T12:00:00.000Z',
  },
  balanceAfter: 300,
};

/** The same redemption, the platform's answer not in yet. */
const PENDING: RedemptionResult = {
  redemption: { ...RESULT.redemption, state: 'pending', redeemedAt: null },
  balanceAfter: null,
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function apiError(status: number, code: string): Response {
  return json(status, { error: { code, message: code } });
}

type FetchStep = Response | Error | Promise<Response>;

/** fetch answering the page's calls in order, recording them. */
function mockFetch(...steps: FetchStep[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchMock = vi.fn((url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    const step = steps.shift();
    if (step === undefined) return Promise.reject(new Error('unexpected fetch'));
    return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function headerOf(init: RequestInit, name: string): string | undefined {
  return (init.headers as Record<string, string> | undefined)?.[name];
}

function renderPage(search = `?designId=${DESIGN_ID}`, language: Language = 'zh-CN') {
  const path = `${BASE_PATH}/APPPage/cashDesign`;
  const router = createMemoryRouter(
    [{ path: '/APPPage/cashDesign', element: <RedeemDesignPage /> }],
    {
      basename: BASE_PATH,
      initialEntries: [`${path}${search}`],
    },
  );
  return render(
    <LanguageProvider language={language}>
      <RouterProvider router={router} />
    </LanguageProvider>,
  );
}

beforeEach(() => {
  sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete (window as { webkit?: unknown }).webkit;
});

describe('RedeemDesignPage', () => {
  it('says the link is incomplete for a missing or malformed id, without asking anybody', async () => {
    const calls = mockFetch();
    const messages = installApp({ getSession: loggedIn });
    renderPage('?designId=no.pe');
    expect(await screen.findByRole('heading', { name: '链接不完整' })).toBeTruthy();
    cleanup();
    renderPage('');
    expect(await screen.findByRole('heading', { name: '链接不完整' })).toBeTruthy();
    expect(calls).toHaveLength(0);
    expect(messages).toHaveLength(0);
  });

  it('starts with the skeleton, then asks to be opened in the app when there is no bridge', async () => {
    const calls = mockFetch();
    renderPage();
    expect(screen.getByRole('status', { name: '正在加载设计图' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: '请在谷圈 App 中打开' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('shows what would be redeemed before the log-in, then the user’s standing after it', async () => {
    let session: FakeAnswer = null;
    const messages = installApp({ handshake, getSession: () => session, login: loggedIn });
    const { design } = designView({});
    const calls = mockFetch(json(200, { design }), json(200, designView({})));
    renderPage();
    // Issue 39: the title, the preview and the price, with the log-in as the next step.
    expect(await screen.findByRole('heading', { name: '樱花季立牌设计图' })).toBeTruthy();
    expect(screen.getByRole('img', { name: /樱花季立牌设计图/ })).toBeTruthy();
    expect(screen.getByText(`${design.pricePoints} 积分`)).toBeTruthy();
    expect(screen.getByRole('heading', { name: '请先登录' })).toBeTruthy();
    expect(screen.queryByText('我的积分')).toBeNull();
    // Read without a token: nobody's session goes with it.
    expect(calls[0]?.url).toBe(`${BASE_PATH}/api/v1/designs/${DESIGN_ID}/preview`);
    expect(headerOf(calls[0]?.init ?? {}, 'authorization')).toBeUndefined();
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    session = loggedIn();
    expect(await screen.findByText('我的积分')).toBeTruthy();
    expect(messages.map((message) => message.method)).toEqual(['handshake', 'getSession', 'login']);
    // The token goes in the header only.
    expect(calls[1]?.url).toBe(`${BASE_PATH}/api/v1/designs/${DESIGN_ID}`);
    expect(headerOf(calls[1]?.init ?? {}, 'authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('asks for the log-in alone when the design cannot be read before it', async () => {
    installApp({ handshake, getSession: null, login: loggedIn });
    mockFetch(json(404, { error: { code: 'not_found', message: 'no' } }));
    renderPage();
    expect(await screen.findByRole('heading', { name: '请先登录' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();
  });

  it('shows a preview still coming from the platform as the placeholder at its shape', async () => {
    installApp({ handshake, getSession: loggedIn });
    const view = designView({});
    const preview = { id: 'PPPPPPPPPPPPPPPP', width: 720, height: 1080, alt: '', missing: true };
    mockFetch(json(200, { ...view, design: { ...view.design, preview } }));
    renderPage();
    const placeholder = await screen.findByRole('img', { name: /樱花季立牌设计图/ });
    expect(placeholder.tagName.toLowerCase()).toBe('svg');
    expect(placeholder.getAttribute('viewBox')).toBe('0 0 720 1080');
    expect(document.querySelector('img')).toBeNull();
  });

  it('redeems after confirmation, once, and opens the drawing in the app', async () => {
    const messages = installApp({ handshake, getSession: loggedIn });
    let answer: (response: Response) => void = () => undefined;
    const calls = mockFetch(
      json(200, designView({})),
      new Promise<Response>((resolve) => {
        answer = resolve;
      }),
    );
    renderPage();
    expect(await screen.findByText('北花')).toBeTruthy();
    expect(screen.getByText('200 积分')).toBeTruthy();
    expect(screen.getByText('500 积分')).toBeTruthy();
    const image = screen.getByRole('img');
    expect(image.getAttribute('src')).toBe('/anime_merch_web/media/PPPPPPPPPPPPPPPP/640.webp');
    expect(image.getAttribute('alt')).toContain('水印');

    fireEvent.click(screen.getByRole('button', { name: '立即兑换' }));
    const dialog = screen.getByRole('dialog', { name: '确认兑换' });
    expect(dialog.textContent).toContain('剩余 300 积分');
    expect(document.activeElement?.textContent).toBe('再想想');
    fireEvent.click(screen.getByRole('button', { name: '确认兑换' }));

    // In flight: the button is disabled, a second tap does nothing.
    const busy = await screen.findByRole('button', { name: '兑换中…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(busy);
    expect(calls).toHaveLength(2);
    const post = calls[1];
    expect(post?.init.method).toBe('POST');
    expect(post?.url).toBe(`${BASE_PATH}/api/v1/designs/${DESIGN_ID}/redemptions`);
    expect(headerOf(post?.init ?? {}, 'idempotency-key')).toMatch(UUID);

    await act(async () => {
      answer(json(201, RESULT));
      await Promise.resolve();
    });
    expect(await screen.findByRole('heading', { name: '兑换成功' })).toBeTruthy();
    expect(screen.getByText('300 积分')).toBeTruthy();
    // The attempt is over: its key is gone.
    expect(sessionStorage.length).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: '查看设计图' }));
    await waitFor(() => {
      expect(messages.at(-1)).toMatchObject({
        method: 'openAppRoute',
        params: { route: `design/${DESIGN_ID}` },
      });
    });
  });

  it('retries a failed redemption with the same key (kept in sessionStorage)', async () => {
    installApp({ handshake, getSession: loggedIn });
    const calls = mockFetch(
      json(200, designView({})),
      new TypeError('network down'),
      json(500, { error: { code: 'internal_error', message: 'x' } }),
      json(200, RESULT),
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '立即兑换' }));
    fireEvent.click(screen.getByRole('button', { name: '确认兑换' }));
    expect((await screen.findByRole('alert')).textContent).toContain('不会重复扣除积分');
    const key = headerOf(calls[1]?.init ?? {}, 'idempotency-key');
    expect(key).toMatch(UUID);
    expect(Object.keys(sessionStorage).map((name) => sessionStorage.getItem(name))).toContain(key);

    fireEvent.click(screen.getByRole('button', { name: '重试' }));
    await screen.findByRole('button', { name: '重试' });
    await waitFor(() => {
      expect(calls).toHaveLength(3);
    });
    fireEvent.click(await screen.findByRole('button', { name: '重试' }));
    expect(await screen.findByRole('heading', { name: '兑换成功' })).toBeTruthy();
    expect(calls.slice(1).map((call) => headerOf(call.init, 'idempotency-key'))).toEqual([
      key,
      key,
      key,
    ]);
  });

  it('says a pending redemption is being confirmed, where the tap was, and completes by itself', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      installApp({ handshake, getSession: loggedIn });
      const calls = mockFetch(
        json(200, designView({})),
        json(202, PENDING),
        json(200, designView({ pending: true })),
        json(200, designView({ redeemed: true, balance: 300 })),
      );
      renderPage();
      fireEvent.click(await screen.findByRole('button', { name: '立即兑换' }));
      fireEvent.click(screen.getByRole('button', { name: '确认兑换' }));
      const heading = await screen.findByRole('heading', { name: '正在确认兑换' });
      // In the live region that held the button: read out when it changes.
      expect(heading.closest('[aria-live="polite"]')).toBeTruthy();
      expect(screen.queryByRole('button', { name: '立即兑换' })).toBeNull();
      expect(screen.getByText('500 积分')).toBeTruthy();

      // The page asks again by itself, until the redemption is no longer pending.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_600);
      });
      expect(screen.getByRole('heading', { name: '正在确认兑换' })).toBeTruthy();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_600);
      });
      expect(await screen.findByRole('heading', { name: '兑换成功' })).toBeTruthy();
      expect(screen.getByText('300 积分')).toBeTruthy();
      expect(calls.slice(2).map((call) => call.init.method ?? 'GET')).toEqual(['GET', 'GET']);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_000);
      });
      expect(calls).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says in English that a tap answered 202 is being confirmed, then that it is redeemed', async () => {
    // The server answers 202 once the platform has taken 1.5 s (issue 37): a slow platform.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      installApp({ handshake, getSession: loggedIn });
      mockFetch(
        json(200, designView({})),
        json(202, PENDING),
        json(200, designView({ redeemed: true, balance: 300 })),
      );
      renderPage(`?designId=${DESIGN_ID}&lang=en`, 'en');
      fireEvent.click(await screen.findByRole('button', { name: 'Redeem' }));
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Redeem' }));
      expect(
        await screen.findByRole('heading', { name: 'Confirming your redemption' }),
      ).toBeTruthy();
      expect(screen.getByText(/you are never charged twice/)).toBeTruthy();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_600);
      });
      expect(await screen.findByRole('heading', { name: 'Redeemed' })).toBeTruthy();
      expect(screen.getByText('300 points')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a pending redemption after a reload as being confirmed', async () => {
    installApp({ handshake, getSession: loggedIn });
    mockFetch(json(200, designView({ pending: true })));
    renderPage();
    expect(await screen.findByRole('heading', { name: '正在确认兑换' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '立即兑换' })).toBeNull();
  });

  it('cancels the confirmation with Escape and returns focus to the button', async () => {
    installApp({ handshake, getSession: loggedIn });
    const calls = mockFetch(json(200, designView({})));
    renderPage();
    const button = await screen.findByRole('button', { name: '立即兑换' });
    fireEvent.click(button);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(calls).toHaveLength(1);
  });

  it('says how many points are missing, offers no way to buy them, and leads to how to earn them', async () => {
    const messages = installApp({ handshake, getSession: loggedIn });
    mockFetch(json(200, designView({ balance: 120, price: 150 })));
    const { container } = renderPage();
    expect(await screen.findByRole('heading', { name: '积分不足' })).toBeTruthy();
    expect(screen.getByText(/还差 30 积分/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: '立即兑换' })).toBeNull();
    expect(container.querySelectorAll('a')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: '看看怎样赚积分' }));
    await waitFor(() => {
      expect(messages.at(-1)).toMatchObject({
        method: 'openAppRoute',
        params: { route: 'points/earn' },
      });
    });
  });

  it('tells the designer it is their own design, and offers no redemption', async () => {
    const messages = installApp({ handshake, getSession: loggedIn });
    mockFetch(json(200, designView({ own: true })));
    renderPage();
    expect(await screen.findByRole('heading', { name: '这是你的设计图' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '立即兑换' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '查看设计图' }));
    await waitFor(() => {
      expect(messages.at(-1)).toMatchObject({
        method: 'openAppRoute',
        params: { route: `design/${DESIGN_ID}` },
      });
    });
  });

  it('shows an already redeemed design with a way to open it in the app', async () => {
    const messages = installApp({ handshake, getSession: loggedIn });
    mockFetch(json(200, designView({ redeemed: true })));
    renderPage();
    expect(await screen.findByRole('heading', { name: '你已兑换过这张设计图' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '查看设计图' }));
    await waitFor(() => {
      expect(messages.at(-1)?.method).toBe('openAppRoute');
    });
  });

  it('tells when the app cannot open the drawing', async () => {
    installApp({
      handshake,
      getSession: loggedIn,
      openAppRoute: () => new FakeAppError('failed', 'no'),
    });
    mockFetch(json(200, designView({ redeemed: true })));
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '查看设计图' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'App 没能打开这个页面，请稍后再试。',
    );
  });

  it('shows a retired design as no longer available, with no price, leading to other designs', async () => {
    const calls = installApp({ handshake, getSession: loggedIn, openAppRoute: {} });
    mockFetch(json(200, designView({ available: false })));
    renderPage();
    expect(await screen.findByRole('heading', { name: '设计图已下架' })).toBeTruthy();
    expect(screen.getByText('预览已下架')).toBeTruthy();
    // No price, nothing to redeem: the way on is the app's other designs.
    expect(screen.queryByText('兑换价格')).toBeNull();
    expect(screen.queryByText('200 积分')).toBeNull();
    expect(screen.queryByRole('heading', { name: '兑换后你将获得' })).toBeNull();
    expect(screen.queryByRole('button', { name: '立即兑换' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '看看其他设计图' }));
    await waitFor(() => {
      expect(calls.find((call) => call.method === 'openAppRoute')?.params).toEqual({
        route: 'designs',
      });
    });
  });

  it('says what a redemption gives, the file and the use allowed, before the button', async () => {
    installApp({ handshake, getSession: loggedIn });
    mockFetch(json(200, designView({})));
    renderPage();
    const gets = await screen.findByRole('heading', { name: '兑换后你将获得' });
    const section = gets.closest('section');
    expect(section?.textContent).toContain('PSD 文件，2480 × 3508 像素，46.2 MB');
    expect(section?.textContent).toContain('个人及非商用');
    const redeem = screen.getByRole('button', { name: '立即兑换' });
    expect(gets.compareDocumentPosition(redeem) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows an unknown design as not found', async () => {
    installApp({ handshake, getSession: loggedIn });
    mockFetch(apiError(404, 'not_found'));
    renderPage();
    expect(await screen.findByRole('heading', { name: '设计图不存在' })).toBeTruthy();
  });

  it('asks to log in again when the server refuses the token', async () => {
    installApp({ handshake, getSession: loggedIn });
    mockFetch(apiError(401, 'unauthorized'));
    renderPage();
    expect(await screen.findByRole('button', { name: '登录' })).toBeTruthy();
  });

  it('offers a retry when the design cannot be loaded', async () => {
    installApp({ handshake, getSession: loggedIn });
    const calls = mockFetch(
      new TypeError('offline'),
      json(200, { unexpected: true }),
      json(200, designView({})),
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '重试' }));
    // An answer the contract does not allow is a failure too.
    fireEvent.click(await screen.findByRole('button', { name: '重试' }));
    expect(await screen.findByRole('button', { name: '立即兑换' })).toBeTruthy();
    expect(calls).toHaveLength(3);
  });

  it('shows the state the server found when a redemption is refused', async () => {
    installApp({ handshake, getSession: loggedIn });
    mockFetch(
      json(200, designView({})),
      apiError(409, 'already_redeemed'),
      json(200, designView({ redeemed: true })),
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '立即兑换' }));
    fireEvent.click(screen.getByRole('button', { name: '确认兑换' }));
    expect(await screen.findByRole('heading', { name: '你已兑换过这张设计图' })).toBeTruthy();
    expect(sessionStorage.length).toBe(0);
  });

  it('speaks English', async () => {
    installApp({ handshake, getSession: loggedIn });
    mockFetch(json(200, designView({ balance: 120, price: 150 })));
    renderPage(`?designId=${DESIGN_ID}&lang=en`, 'en');
    expect(await screen.findByRole('heading', { name: 'Not enough points' })).toBeTruthy();
    expect(screen.getByText(/You need 30 more points/)).toBeTruthy();
    expect(screen.getByText('120 points')).toBeTruthy();
  });
});
