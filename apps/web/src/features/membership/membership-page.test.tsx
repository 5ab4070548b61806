import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MembershipResponse } from '@guquan/contract/membership';
import { LanguageProvider } from '../../lib/i18n/language-context';
import { installFakeApp, type FakeApp } from '../../test-support/fake-app';
import { MembershipPage } from './membership-page';

const SESSION = { token: 'T'.repeat(43), userId: 'eqv4wOwctxOn7xAR' };
const ios = { bridgeVersion: 1, platform: 'ios', appVersion: '3.2.0' };
const android = { ...ios, platform: 'android' };
const OVERVIEW: MembershipResponse = {
  membership: { status: 'none', expiresAt: null, productId: null, autoRenew: null },
  plans: [
    {
      productId: 'vip.monthly',
      titles: { 'zh-CN': '月度会员', en: 'Monthly' },
      period: 'month',
      fallbackPriceFen: 2500,
    },
  ],
  appAccountToken: '6f1c2c52-9d7a-4a57-9d33-7a4b4d2f0c11',
};

let app: FakeApp | undefined;

function stubServer(status = 200, body: unknown = OVERVIEW) {
  const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status })));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage() {
  const router = createMemoryRouter([{ path: '/', element: <MembershipPage /> }]);
  render(
    <LanguageProvider language="en">
      <RouterProvider router={router} />
    </LanguageProvider>,
  );
}

afterEach(() => {
  cleanup();
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
    expect(await screen.findByText('You are not a member yet')).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'Agree and subscribe for $3.99/month' }),
    ).toBeTruthy();
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
    expect(await screen.findByText('You are not a member yet')).toBeTruthy();
    // Without the App Store's price, the server's.
    expect(
      screen.getByRole('button', { name: 'Agree and subscribe for ¥25.00/month' }),
    ).toBeTruthy();
  });

  it('offers no purchase on Android, and says so without a session', async () => {
    app = installFakeApp({ handshake: android, getSession: SESSION });
    stubServer();
    renderPage();
    expect(await screen.findByText('You are not a member yet')).toBeTruthy();
    expect(screen.getByText(/Membership cannot be bought on this device/)).toBeTruthy();
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
    expect(await screen.findByText(/Open the 谷圈 app on an iPhone/)).toBeTruthy();
  });
});
