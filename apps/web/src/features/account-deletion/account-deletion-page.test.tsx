import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeletionOverview } from '@guquan/contract/account-deletion';
import type { Language } from '@guquan/contract/language';
import { LanguageProvider } from '../../lib/i18n/language-context';
import { installFakeApp, type FakeApp } from '../../test-support/fake-app';
import { AccountDeletionPage } from './account-deletion-page';
import { formatDateTime } from '../../lib/format/dates';

const TOKEN = `h.p.${'a'.repeat(43)}`;
const SESSION = { token: TOKEN, userId: '-mXliFgiAQwcM9MK' };

const OVERVIEW: DeletionOverview = {
  maskedPhone: '138****0001',
  content: { goods: 6, cabinets: 1, notes: 1, comments: 3 },
  losses: { points: 1200, designs: 1, membershipUntil: null, renewingSubscription: false },
  retained: [
    { kind: 'goods_and_transactions', months: 36 },
    { kind: 'network_logs', months: 6 },
    { kind: 'deletion_request', months: 6 },
    { kind: 'reports_and_appeals', months: 6 },
  ],
  blockers: [],
  request: null,
  cancelledByLogin: null,
  coolOffDays: 15,
};
const REQUEST = { requestedAt: '2025-12-01T08:00:00.000Z', deletesAt: '2025-12-16T08:00:00.000Z' };

/** The app, played through the iOS transport: answers each call from `answers`. */
function installApp(answers: Record<string, unknown>): FakeApp['calls'] {
  return installFakeApp(answers).calls;
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;
function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

let fetchCalls: { url: string; method: string; authorization: string | null; body: unknown }[] = [];
function mockFetch(handler: Handler) {
  fetchCalls = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    fetchCalls.push({
      url,
      method: init.method ?? 'GET',
      authorization: headers.get('authorization'),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    });
    return handler(url, init);
  });
}

function renderPage(language: Language = 'zh-CN') {
  return render(
    <LanguageProvider language={language}>
      <AccountDeletionPage />
    </LanguageProvider>,
  );
}

beforeEach(() => {
  delete (window as unknown as { webkit?: unknown }).webkit;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AccountDeletionPage', () => {
  it('shows a skeleton first, then asks to open the app when there is no bridge', async () => {
    mockFetch(() => json(500, {}));
    renderPage();
    expect(screen.getByRole('status').textContent).toBe('正在加载');
    expect(await screen.findByRole('heading', { name: '请在谷圈 App 中打开' })).toBeTruthy();
    expect(fetchCalls).toEqual([]);
  });

  it('asks a logged-out user to log in through the app, then shows the page', async () => {
    const calls = installApp({ getSession: null, login: SESSION });
    mockFetch(() => json(200, OVERVIEW));
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByRole('heading', { name: '将被删除的内容' })).toBeTruthy();
    expect(calls.map((call) => call.method)).toEqual(['getSession', 'login']);
    expect(fetchCalls[0]?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('says what is deleted, kept and lost, verifies by SMS, confirms, and tells the app', async () => {
    // The confirmation ends every token issued before it: the app then hands a refreshed one.
    const refreshed = { ...SESSION, token: `h.p.${'r'.repeat(43)}` };
    const sessions = [SESSION, refreshed];
    const calls = installApp({ getSession: () => sessions.shift() ?? refreshed });
    let pending = false;
    mockFetch((url, init) => {
      if (url.endsWith('/code')) {
        return json(201, {
          maskedPhone: '138****0001',
          expiresAt: '2025-12-01T08:05:00.000Z',
          resendAfterSeconds: 60,
        });
      }
      if (url.endsWith('/code/check')) return json(204, null);
      if (init.method === 'POST') {
        pending = true;
        return json(201, { request: REQUEST });
      }
      if (init.method === 'DELETE') {
        pending = false;
        return json(204, null);
      }
      return json(200, { ...OVERVIEW, request: pending ? REQUEST : null });
    });
    renderPage();
    expect(await screen.findByText('你发布的 6 件谷子及其图片')).toBeTruthy();
    expect(screen.getByText(/自交易完成或信息发布之日起保存 3 年/)).toBeTruthy();
    expect(screen.getByText('尚未使用的 1200 积分（作废）')).toBeTruthy();
    expect(screen.getByText('已兑换的 1 张设计图（作废）')).toBeTruthy();
    // No subscription: no Apple warning.
    expect(screen.queryByText(/注销账号不会取消订阅/)).toBeNull();
    expect(screen.getByText(/138\*\*\*\*0001/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    const resend = await screen.findByRole('button', { name: /秒后可重新获取/ });
    expect((resend as HTMLButtonElement).disabled).toBe(true);

    const input = screen.getByLabelText('短信验证码');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
    fireEvent.change(input, { target: { value: '12a34 56' } });
    expect((input as HTMLInputElement).value).toBe('123456');
    const submit = screen.getByRole('button', { name: '申请注销' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(submit);

    const dialog = await screen.findByRole('alertdialog', { name: '确定注销账号？' });
    expect(document.activeElement?.textContent).toBe('再想想');
    // Tab and Shift+Tab stay inside the dialog.
    fireEvent.keyDown(document.activeElement as Element, { key: 'Tab', shiftKey: true });
    expect(document.activeElement?.textContent).toBe('确定注销');
    fireEvent.keyDown(document.activeElement as Element, { key: 'Tab' });
    expect(document.activeElement?.textContent).toBe('再想想');
    fireEvent.click(screen.getByRole('button', { name: '确定注销' }));
    const date = formatDateTime(REQUEST.deletesAt, 'zh-CN');
    expect(
      await screen.findByText(`你的账号将于 ${date} 注销。在此之前，你可以撤销申请。`),
    ).toBeTruthy();
    expect(dialog.isConnected).toBe(false);
    // The code was checked before the dialog, then confirmed with it.
    const posts = fetchCalls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.url.replace(/^.*\/account\/deletion/, ''))).toEqual([
      '/code',
      '/code/check',
      '',
    ]);
    expect(posts[1]?.body).toEqual({ code: '123456' });
    expect(posts[2]?.body).toEqual({ code: '123456', confirm: true });
    await waitFor(() => {
      expect(calls).toContainEqual({
        method: 'accountDeleted',
        params: { deletesAt: REQUEST.deletesAt },
      });
    });

    // The page asked the app again, and goes on with the refreshed token.
    await waitFor(() => {
      expect(calls.filter((call) => call.method === 'getSession')).toHaveLength(2);
    });
    await waitFor(() => {
      expect(fetchCalls.at(-1)?.authorization).toBe(`Bearer ${refreshed.token}`);
    });
    expect(
      await screen.findByText(`你的账号将于 ${date} 注销。在此之前，你可以撤销申请。`),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '撤销注销' }));
    expect(await screen.findByText('已撤销注销申请，你的账号恢复正常。')).toBeTruthy();
    expect(fetchCalls.at(-1)).toMatchObject({
      method: 'DELETE',
      authorization: `Bearer ${refreshed.token}`,
    });
  });

  it('puts the blockers first, in plain words, each with the screen of the app that settles it', async () => {
    const app = installFakeApp({ getSession: SESSION });
    let blocked = true;
    mockFetch(() =>
      json(200, {
        ...OVERVIEW,
        blockers: blocked
          ? [
              {
                kind: 'exposure_in_review',
                title: '收款后不发货',
                since: '2025-11-18T12:00:00.000Z',
              },
            ]
          : [],
      }),
    );
    renderPage();
    const heading = await screen.findByRole('heading', { name: '注销前需要先处理' });
    // Before what is deleted, lost and kept: the first thing after the page's heading.
    const deleted = screen.getByRole('heading', { name: '将被删除的内容' });
    expect(
      heading.compareDocumentPosition(deleted) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(screen.getByText('你发布的曝光「收款后不发货」还在审核中')).toBeTruthy();
    expect(screen.queryByText('审核中的曝光')).toBeNull();
    expect(screen.queryByRole('button', { name: '获取验证码' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: '去「我的曝光」撤回' }));
    await waitFor(() => {
      expect(app.calls).toContainEqual({
        method: 'openAppRoute',
        params: { route: 'exposures/mine' },
      });
    });
    // Withdrawn there; back on the page, it reads the overview again.
    blocked = false;
    app.push('resumed', {});
    expect(await screen.findByRole('button', { name: '获取验证码' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: '注销前需要先处理' })).toBeNull();
  });

  it('names only this user’s losses, without zero counts, and warns of Apple only to a subscriber', async () => {
    installApp({ getSession: SESSION });
    mockFetch(() =>
      json(200, {
        ...OVERVIEW,
        content: { goods: 2, cabinets: 0, notes: 0, comments: 0 },
        losses: { points: 0, designs: 0, membershipUntil: null, renewingSubscription: false },
      }),
    );
    renderPage();
    expect(await screen.findByText('你发布的 2 件谷子及其图片')).toBeTruthy();
    expect(screen.queryByText(/ 0 /)).toBeNull();
    expect(
      screen.getByText('你没有积分、兑换的设计图或会员时长，不会因注销失去这些。'),
    ).toBeTruthy();
    expect(screen.queryByText(/注销账号不会取消订阅/)).toBeNull();
    cleanup();

    installApp({ getSession: SESSION });
    mockFetch(() =>
      json(200, {
        ...OVERVIEW,
        losses: {
          points: 120,
          designs: 0,
          membershipUntil: '2027-11-04T08:00:00.000Z',
          renewingSubscription: true,
        },
      }),
    );
    renderPage('en');
    expect(await screen.findByText('Your 120 unused points')).toBeTruthy();
    expect(
      screen.getByText('The membership time you have left (until November 4, 2027)'),
    ).toBeTruthy();
    expect(screen.queryByText(/design drawings? you redeemed/)).toBeNull();
    expect(screen.getByText(/deleting your account does not cancel it/)).toBeTruthy();
  });

  it('says when a log-in during the cool-off cancelled the deletion', async () => {
    installApp({ getSession: SESSION });
    mockFetch(() =>
      json(200, { ...OVERVIEW, cancelledByLogin: { at: '2025-12-03T09:30:00.000Z' } }),
    );
    renderPage('en');
    expect(
      await screen.findByText(
        /^You logged in to Goods Circle again on .*which cancelled your deletion request/,
      ),
    ).toBeTruthy();
  });

  it('says the app did not answer, rather than the network, and offers a retry', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      installApp({ getSession: () => new Promise(() => undefined) });
      mockFetch(() => json(200, OVERVIEW));
      renderPage();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(11_000);
      });
      expect(screen.getByRole('heading', { name: '谷圈 App 没有响应' })).toBeTruthy();
      expect(screen.queryByText(/网络/)).toBeNull();
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('heads the page in words of its own, and leads the logged-out page with words', async () => {
    installApp({ getSession: null });
    mockFetch(() => json(200, OVERVIEW));
    renderPage('en');
    expect(await screen.findByRole('heading', { name: 'Please log in' })).toBeTruthy();
    expect(screen.queryByText('?')).toBeNull();
    cleanup();
    installApp({ getSession: SESSION });
    renderPage('en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Delete account' })).toBeTruthy();
    expect(screen.queryByText('deregister account')).toBeNull();
  });

  it('explains a wrong code at once, before any confirmation, and a rate limit with the wait', async () => {
    installApp({ getSession: SESSION });
    mockFetch((url, init) => {
      if (url.endsWith('/code')) {
        return json(429, {
          error: { code: 'sms_rate_limited', message: 'wait', retryAfterSeconds: 42 },
        });
      }
      if (init.method === 'POST') {
        return json(400, { error: { code: 'code_wrong', message: 'wrong', attemptsLeft: 4 } });
      }
      return json(200, OVERVIEW);
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '获取验证码' }));
    expect((await screen.findByRole('alert')).textContent).toBe('获取太频繁，请 42 秒后再试。');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /秒后可重新获取/ }).disabled).toBe(
      true,
    );

    fireEvent.change(screen.getByLabelText('短信验证码'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: '申请注销' }));
    // Issue 39: the wrong code is said at once; the "确定注销账号？" dialog never opens for it.
    await waitFor(() => {
      expect(screen.getByRole('alert').textContent).toBe('验证码不正确，还可以再试 4 次。');
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fetchCalls.filter((call) => call.url.endsWith('/account/deletion'))).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ method: 'POST' })]),
    );
  });

  it('offers a retry after a network failure', async () => {
    installApp({ getSession: SESSION });
    let fail = true;
    mockFetch(() => {
      if (fail) return Promise.reject(new TypeError('offline'));
      return json(200, OVERVIEW);
    });
    renderPage();
    const retry = await screen.findByRole('button', { name: '重试' });
    fail = false;
    await act(async () => {
      fireEvent.click(retry);
      await Promise.resolve();
    });
    expect(await screen.findByRole('heading', { name: '将被删除的内容' })).toBeTruthy();
  });

  it('shows the pending request in English with the exact date', async () => {
    installApp({ getSession: SESSION });
    mockFetch(() => json(200, { ...OVERVIEW, request: REQUEST }));
    renderPage('en');
    const date = formatDateTime(REQUEST.deletesAt, 'en');
    expect(
      await screen.findByText(
        `Your account will be deleted on ${date}. You can cancel until then.`,
      ),
    ).toBeTruthy();
    expect(date).toMatch(/December 16, 2025/);
    expect(screen.getByRole('button', { name: 'Cancel deletion' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Get code' })).toBeNull();
  });

  it('asks to log in again when the session has ended', async () => {
    installApp({ getSession: SESSION });
    mockFetch(() => json(401, { error: { code: 'unauthorized', message: 'x' } }));
    renderPage('en');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
  });
});
