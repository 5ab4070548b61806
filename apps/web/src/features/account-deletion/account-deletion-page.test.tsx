import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeletionOverview } from '@guquan/contract/account-deletion';
import type { Language } from '@guquan/contract/language';
import { LanguageProvider } from '../../lib/i18n/language-context';
import { installFakeApp, type FakeApp } from '../../test-support/fake-app';
import { AccountDeletionPage } from './account-deletion-page';
import { formatDateTime } from '../../lib/format/dates';

const TOKEN = 'a'.repeat(43);
const SESSION = { token: TOKEN, userId: '-mXliFgiAQwcM9MK' };

const OVERVIEW: DeletionOverview = {
  maskedPhone: '138****0001',
  content: { goods: 6, cabinets: 1, notes: 1, comments: 3 },
  losses: { points: null, designs: null, membershipUntil: null },
  retained: [
    { kind: 'goods_and_transactions', months: 36 },
    { kind: 'network_logs', months: 6 },
    { kind: 'deletion_request', months: 6 },
    { kind: 'reports_and_appeals', months: 6 },
  ],
  blockers: [],
  request: null,
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
      <AccountDeletionPage title={language === 'en' ? 'deregister account' : '注销账号'} />
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
    const calls = installApp({ getSession: SESSION });
    mockFetch((url, init) => {
      if (url.endsWith('/code')) {
        return json(201, {
          maskedPhone: '138****0001',
          expiresAt: '2025-12-01T08:05:00.000Z',
          resendAfterSeconds: 60,
        });
      }
      if (init.method === 'POST') return json(201, { request: REQUEST });
      if (init.method === 'DELETE') return json(204, null);
      return json(200, OVERVIEW);
    });
    renderPage();
    expect(await screen.findByText('你发布的 6 件谷子及其图片')).toBeTruthy();
    expect(screen.getByText(/自交易完成或信息发布之日起保存 3 年/)).toBeTruthy();
    expect(screen.getByText('尚未使用的积分（作废）')).toBeTruthy();
    expect(screen.getByText(/注销账号不会取消订阅/)).toBeTruthy();
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
    expect(
      fetchCalls.find((call) => call.method === 'POST' && !call.url.endsWith('/code'))?.body,
    ).toEqual({
      code: '123456',
      confirm: true,
    });
    await waitFor(() => {
      expect(calls).toContainEqual({
        method: 'accountDeleted',
        params: { deletesAt: REQUEST.deletesAt },
      });
    });

    fireEvent.click(screen.getByRole('button', { name: '撤销注销' }));
    expect(await screen.findByText('已撤销注销申请，你的账号恢复正常。')).toBeTruthy();
    expect(fetchCalls.at(-1)?.method).toBe('DELETE');
  });

  it('lists the blockers with how to resolve each, and offers no code', async () => {
    installApp({ getSession: SESSION });
    mockFetch(() =>
      json(200, {
        ...OVERVIEW,
        blockers: [
          {
            kind: 'exposure_in_review',
            title: '曝光：收款后不发货',
            since: '2025-11-18T12:00:00.000Z',
          },
        ],
      }),
    );
    renderPage();
    expect(await screen.findByRole('heading', { name: '暂时无法注销' })).toBeTruthy();
    expect(screen.getByText('审核中的曝光')).toBeTruthy();
    expect(screen.getByText('曝光：收款后不发货')).toBeTruthy();
    expect(screen.getByText(/请等待审核完成/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: '获取验证码' })).toBeNull();
  });

  it('explains a wrong code and a rate limit with the wait', async () => {
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
    fireEvent.click(await screen.findByRole('button', { name: '确定注销' }));
    await waitFor(() => {
      expect(screen.getByRole('alert').textContent).toBe('验证码不正确，还可以再试 4 次。');
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
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
