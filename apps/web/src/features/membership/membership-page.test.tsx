import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Membership, MembershipResponse, Plan } from '@guquan/contract/membership';
import { LanguageProvider } from '../../lib/i18n/language-context';
import { FakeAppError, installFakeApp, type FakeApp } from '../../test-support/fake-app';
import { AWAITING_APPROVAL_KEY } from './awaiting-approval';
import { PLAN_CHOICE_KEY } from './plan-choice';
import { MembershipPage } from './membership-page';

const SESSION = { token: `h.p.${'T'.repeat(43)}`, userId: 'eqv4wOwctxOn7xAR' };
const ios = { bridgeVersion: 1, platform: 'ios', appVersion: '3.2.0' };
const android = { ...ios, platform: 'android' };
const NO_MEMBERSHIP: Membership = {
  status: 'none',
  expiresAt: null,
  productId: null,
  autoRenew: null,
  renewalProductId: null,
};
const MONTHLY: Plan = {
  productId: 'vip.monthly',
  titles: { 'zh-CN': '连续包月会员', en: 'Monthly membership' },
  period: 'month',
  fallbackPriceFen: 2500,
  level: 3,
};
const QUARTERLY: Plan = {
  productId: 'vip.quarterly',
  titles: { 'zh-CN': '连续包季会员', en: 'Quarterly membership' },
  period: 'quarter',
  fallbackPriceFen: 6800,
  level: 2,
};
const YEARLY: Plan = {
  productId: 'vip.yearly',
  titles: { 'zh-CN': '连续包年会员', en: 'Yearly membership' },
  period: 'year',
  fallbackPriceFen: 23800,
  level: 1,
};
const OVERVIEW: MembershipResponse = {
  membership: NO_MEMBERSHIP,
  plans: [MONTHLY],
  appAccountToken: '6f1c2c52-9d7a-4a57-9d33-7a4b4d2f0c11',
};
/** 五条悟的猫猫: a yearly member, renewing on 2027-11-04. */
const MEMBER: Membership = {
  status: 'active',
  expiresAt: '2027-11-04T08:00:00.000Z',
  productId: 'vip.yearly',
  autoRenew: true,
  renewalProductId: 'vip.yearly',
};
const MEMBER_OVERVIEW: MembershipResponse = {
  ...OVERVIEW,
  membership: MEMBER,
  plans: [MONTHLY, QUARTERLY, YEARLY],
};

let app: FakeApp | undefined;

function stubServer(status = 200, body: unknown = OVERVIEW) {
  const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status })));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Answers each call by its path and method: `GET …/membership`, `POST …/transactions`. */
function stubRoutes(routes: Record<string, () => [number, unknown]>) {
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url.replace(/^.*\/api\/v1/, '')}`;
    const route = routes[key];
    if (!route) throw new Error(`unexpected ${key}`);
    const [status, body] = route();
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage(language: 'en' | 'zh-CN' = 'en') {
  const router = createMemoryRouter([{ path: '/', element: <MembershipPage /> }]);
  render(
    <LanguageProvider language={language}>
      <RouterProvider router={router} />
    </LanguageProvider>,
  );
}

const iosApp = (answers: Record<string, unknown> = {}) =>
  installFakeApp({
    handshake: ios,
    getSession: SESSION,
    storeKitProducts: { products: [] },
    storeKitUnfinished: { signedTransactions: [] },
    ...answers,
  });

/** The live region right after a button: where the page says what the tap led to. */
function feedbackAfter(button: HTMLElement): string {
  const next = button.nextElementSibling;
  expect(next?.getAttribute('role')).toBe('status');
  return next?.textContent ?? '';
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  app?.remove();
  app = undefined;
  vi.unstubAllGlobals();
});

describe('MembershipPage', () => {
  it('shows the status and the App Store prices to a logged-in iOS user', async () => {
    app = installFakeApp({
      handshake: ios,
      getSession: SESSION,
      storeKitProducts: {
        products: [{ id: 'vip.monthly', displayName: '', displayPrice: '$3.99' }],
      },
      storeKitUnfinished: { signedTransactions: [] },
    });
    const fetchMock = stubServer();
    renderPage();
    expect(await screen.findByRole('button', { name: 'Subscribe for $3.99/month' })).toBeTruthy();
    await waitFor(() => {
      expect(app?.calls.map((call) => call.method)).toEqual([
        'handshake',
        'getSession',
        'storeKitProducts',
        'storeKitUnfinished',
      ]);
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('asks an iOS user without a session to log in, then loads', async () => {
    let session: unknown = null;
    app = installFakeApp({
      handshake: ios,
      getSession: () => session,
      login: () => SESSION,
      storeKitProducts: { products: [] },
      storeKitUnfinished: { signedTransactions: [] },
    });
    stubServer();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }));
    session = SESSION;
    // Without the App Store's price, the server's.
    expect(await screen.findByRole('button', { name: 'Subscribe for ¥25.00/month' })).toBeTruthy();
  });

  it('offers no purchase on Android, and says so without a session', async () => {
    app = installFakeApp({ handshake: android, getSession: SESSION });
    stubServer();
    renderPage();
    expect(await screen.findByText(/Membership cannot be bought on this device/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /subscribe/ })).toBeNull();
  });

  it('offers a retry when the server fails, and a log-in when the session ended', async () => {
    app = installFakeApp({ handshake: ios, getSession: SESSION });
    stubServer(503, { error: { code: 'unavailable', message: 'x' } });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be loaded/);
    stubServer(401, { error: { code: 'unauthorized', message: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it('says where to buy in an ordinary browser', async () => {
    stubServer();
    renderPage();
    expect(await screen.findByText(/Open the Goods Circle app on an iPhone/)).toBeTruthy();
  });
});

describe('MembershipPage for an active member', () => {
  it('shows the plan, its renewal date and the App Store’s management, never a purchase form', async () => {
    app = iosApp();
    const fetchMock = stubRoutes({ 'GET /membership': () => [200, MEMBER_OVERVIEW] });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Your membership' })).toBeTruthy();
    expect(screen.getByText('Yearly membership · ¥238.00/year')).toBeTruthy();
    expect(screen.getByText('Renews on November 4, 2027')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Subscribe/ })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => {
      expect(app?.calls.map((call) => call.method)).toContain('storeKitManageSubscriptions');
    });
    // Back from the App Store's sheet, the page reads the membership again.
    await waitFor(() => {
      expect(fetchMock).toHaveBeenCalledTimes(2);
    });
  });

  it('changes the plan through StoreKit: a downgrade waits for the renewal, said where the tap was', async () => {
    app = iosApp({
      storeKitPurchase: {
        state: 'purchased',
        signedTransaction: 'current.tx.sig',
        signedRenewalInfo: 'renew.info.sig',
      },
      storeKitFinish: {},
    });
    let submitted: unknown;
    stubRoutes({
      'GET /membership': () => [200, MEMBER_OVERVIEW],
      'POST /membership/transactions': () => [
        200,
        { membership: { ...MEMBER, renewalProductId: 'vip.monthly' }, transactionId: '2000000111' },
      ],
    });
    const originalFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') submitted = JSON.parse(init.body as string);
      return originalFetch(url, init);
    });
    renderPage();
    const downgrade = await screen.findByRole('button', {
      name: 'Change to Monthly membership ¥25.00/month',
    });
    expect(
      screen.getAllByText(/^Downgrade, starts when it renews on November 4, 2027/),
    ).toHaveLength(2);
    expect(screen.queryByText(/^Upgrade, starts now/)).toBeNull();
    const option = downgrade.closest('li');
    fireEvent.click(downgrade);
    // The news stays where the tap was: in the same option, in its live region.
    await waitFor(() => {
      expect(option?.querySelector('[role="status"]')?.textContent).toMatch(
        /^Done: it changes to Monthly membership when it renews on November 4, 2027/,
      );
    });
    expect(app.calls.find((call) => call.method === 'storeKitPurchase')?.params).toMatchObject({
      productId: 'vip.monthly',
    });
    // The renewal info goes to the server with the transaction: it knows what renews.
    expect(submitted).toEqual({
      signedTransaction: 'current.tx.sig',
      signedRenewalInfo: 'renew.info.sig',
    });
    expect(
      screen.getAllByText('Changes to Monthly membership when it renews on November 4, 2027')
        .length,
    ).toBeGreaterThan(0);
    // Keeping the yearly plan is offered now, and no second purchase anywhere.
    expect(screen.getByRole('button', { name: 'Keep Yearly membership' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Subscribe/ })).toBeNull();
  });

  it('names the plans in the page’s language, whatever language the App Store speaks', async () => {
    app = iosApp({
      storeKitProducts: {
        products: [{ id: 'vip.yearly', displayName: '连续包年会员', displayPrice: '¥238.00' }],
      },
    });
    stubRoutes({ 'GET /membership': () => [200, MEMBER_OVERVIEW] });
    renderPage();
    expect(await screen.findByText('Yearly membership · ¥238.00/year')).toBeTruthy();
    expect(screen.queryByText(/连续包/)).toBeNull();
  });
});

describe('MembershipPage buying', () => {
  it('says a failed purchase in the page’s words, below the button, with a next step', async () => {
    app = iosApp({
      storeKitPurchase: new FakeAppError(
        'failed',
        'The purchase failed (simulated App Store error).',
      ),
    });
    stubRoutes({ 'GET /membership': () => [200, OVERVIEW] });
    renderPage('zh-CN');
    fireEvent.click(await screen.findByRole('checkbox'));
    const buy = screen.getByRole('button', { name: '开通会员 ¥25.00/月' });
    fireEvent.click(buy);
    await waitFor(() => {
      expect(feedbackAfter(buy)).toMatch(/^App Store 没能完成这次购买，你没有被扣款。可以再试一次/);
    });
    expect(document.body.textContent).not.toMatch(/simulated App Store error/);
  });

  it('a purchase waiting for approval becomes the member’s view when approved, with no “waiting” left', async () => {
    app = iosApp({ storeKitPurchase: { state: 'pending' }, storeKitFinish: {} });
    stubRoutes({
      'GET /membership': () => [200, OVERVIEW],
      'POST /membership/transactions': () => [
        200,
        { membership: { ...MEMBER, productId: 'vip.monthly' }, transactionId: '2000000222' },
      ],
    });
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox'));
    const buy = screen.getByRole('button', { name: 'Subscribe for ¥25.00/month' });
    fireEvent.click(buy);
    await waitFor(() => {
      expect(feedbackAfter(buy)).toMatch(/waiting for approval/);
    });
    app.push('transactionUpdated', { signedTransaction: 'approved.tx.sig' });
    expect(
      await screen.findByText(/^Your purchase was approved: your membership is active until/),
    ).toBeTruthy();
    expect(screen.queryByText(/waiting for approval/)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Subscribe/ })).toBeNull();
  });

  it('keeps the chosen plan and the consent across a visit to the agreement', async () => {
    app = iosApp();
    stubRoutes({ 'GET /membership': () => [200, { ...OVERVIEW, plans: [MONTHLY, YEARLY] }] });
    renderPage();
    fireEvent.click(await screen.findByRole('radio', { name: /Yearly membership/ }));
    fireEvent.click(screen.getByRole('checkbox'));
    expect(sessionStorage.getItem(PLAN_CHOICE_KEY)).toBeTruthy();
    // The agreement replaces the page; coming back mounts it again.
    cleanup();
    renderPage();
    const yearly = await screen.findByRole('radio', { name: /Yearly membership/ });
    await waitFor(() => {
      expect(yearly).toHaveProperty('checked', true);
    });
    expect(screen.getByRole<HTMLInputElement>('checkbox').checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Subscribe for ¥238.00/year' })).toBeTruthy();
  });

  it('keeps the buy button disabled, saying why, while a purchase waits for approval, also after a reload', async () => {
    app = iosApp({ storeKitPurchase: { state: 'pending' } });
    stubRoutes({ 'GET /membership': () => [200, { ...OVERVIEW, plans: [MONTHLY, YEARLY] }] });
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox'));
    const buy = screen.getByRole('button', { name: 'Subscribe for ¥25.00/month' });
    fireEvent.click(buy);
    const reason =
      'Your purchase of the Monthly membership is waiting for approval (Ask to Buy). Your membership starts once it is approved; until then you cannot buy again.';
    // The button is disabled while the App Store is asked too: wait for StoreKit's answer.
    await waitFor(() => {
      expect(feedbackAfter(buy)).toBe(reason);
    });
    expect(buy.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(buy.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      reason,
    );
    // A second tap (another plan too) asks StoreKit nothing.
    fireEvent.click(screen.getByRole('radio', { name: /Yearly membership/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe for ¥238.00/year' }));
    expect(app.calls.filter((call) => call.method === 'storeKitPurchase')).toHaveLength(1);

    // The page is left and opened again: still waiting, still no second purchase.
    cleanup();
    renderPage();
    const again = await screen.findByRole('button', { name: /^Subscribe for/ });
    expect(again.getAttribute('aria-disabled')).toBe('true');
    expect(feedbackAfter(again)).toBe(reason);
  });

  it('forgets a wait for approval older than a day (Apple lets the request lapse)', async () => {
    sessionStorage.setItem(
      AWAITING_APPROVAL_KEY,
      JSON.stringify({ productId: 'vip.monthly', since: Date.now() - 25 * 60 * 60 * 1000 }),
    );
    app = iosApp();
    stubRoutes({ 'GET /membership': () => [200, OVERVIEW] });
    renderPage();
    const buy = await screen.findByRole('button', { name: 'Subscribe for ¥25.00/month' });
    expect(buy.getAttribute('aria-disabled')).toBe('false');
    expect(feedbackAfter(buy)).toBe('');
  });
});

describe('MembershipPage offering the plans', () => {
  it('puts the benefits above the plans and no empty “not a member” card', async () => {
    app = iosApp();
    stubRoutes({
      'GET /membership': () => [200, { ...OVERVIEW, plans: [MONTHLY, QUARTERLY, YEARLY] }],
    });
    renderPage();
    const plans = await screen.findByRole('heading', { name: 'Choose a plan' });
    const benefits = screen.getByRole('heading', { name: 'Member benefits' });
    expect(benefits.compareDocumentPosition(plans) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByText(/not a member/i)).toBeNull();
    expect(document.querySelector('[data-status]')).toBeNull();
  });

  it('shows what the longer plans cost a month and marks the best value, from the prices', async () => {
    app = iosApp({
      storeKitProducts: {
        products: [
          {
            id: 'vip.monthly',
            displayName: '',
            displayPrice: '¥25.00',
            price: 25,
            currencyCode: 'CNY',
          },
          {
            id: 'vip.quarterly',
            displayName: '',
            displayPrice: '¥68.00',
            price: 68,
            currencyCode: 'CNY',
          },
          {
            id: 'vip.yearly',
            displayName: '',
            displayPrice: '¥238.00',
            price: 238,
            currencyCode: 'CNY',
          },
        ],
      },
    });
    stubRoutes({
      'GET /membership': () => [200, { ...OVERVIEW, plans: [MONTHLY, QUARTERLY, YEARLY] }],
    });
    renderPage('zh-CN');
    const yearly = await screen.findByRole('radio', { name: /连续包年会员/ });
    expect(yearly.closest('label')?.textContent).toContain('最划算');
    expect(yearly.closest('label')?.textContent).toContain('折合 ¥19.83/月');
    const quarterly = screen.getByRole('radio', { name: /连续包季会员/ });
    expect(quarterly.closest('label')?.textContent).toContain('折合 ¥22.67/月');
    expect(quarterly.closest('label')?.textContent).not.toContain('最划算');
    expect(screen.getAllByText('最划算')).toHaveLength(1);
  });
});
