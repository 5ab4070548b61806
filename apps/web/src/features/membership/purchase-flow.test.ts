import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Membership } from '@guquan/contract/membership';
import { createBridge, type Bridge } from '../../lib/bridge/native-bridge';
import { FakeAppError, installFakeApp, type FakeApp } from '../../test-support/fake-app';
import { createMembershipFlow } from './purchase-flow';

const TOKEN = `h.p.${'T'.repeat(43)}`;
const ACCOUNT = '6f1c2c52-9d7a-4a57-9d33-7a4b4d2f0c11';
const jws = (name: string) => `${name}.payload.signature`;
const MEMBER: Membership = {
  status: 'active',
  expiresAt: '2027-01-01T00:00:00.000Z',
  productId: 'vip.monthly',
  autoRenew: true,
  renewalProductId: 'vip.monthly',
};

let log: string[];
let app: FakeApp | undefined;
let bridge: Bridge;

/** A server that confirms the transactions in `confirms`, and is unreachable for the others. */
function server(confirms: Record<string, string>, failure: 'network' | 400 = 'network') {
  return vi.fn(async (url: string, init: RequestInit) => {
    const body = JSON.parse(init.body as string) as { signedTransaction: string };
    log.push(`server:${body.signedTransaction}`);
    await Promise.resolve();
    expect(new Headers(init.headers).get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(url).toBe('/anime_merch_web/api/v1/membership/transactions');
    const transactionId = confirms[body.signedTransaction];
    if (transactionId) {
      log.push(`server confirmed ${transactionId}`);
      return new Response(JSON.stringify({ membership: MEMBER, transactionId }), { status: 200 });
    }
    if (failure === 400) {
      return new Response(JSON.stringify({ error: { code: 'wrong_account', message: 'x' } }), {
        status: 403,
      });
    }
    throw new TypeError('Failed to fetch');
  });
}

beforeEach(() => {
  log = [];
  bridge = createBridge(window);
});
afterEach(() => {
  app?.remove();
  vi.unstubAllGlobals();
});

describe('the purchase flow', () => {
  it('shows verifying, and tells the app to finish only after the server confirmed', async () => {
    app = installFakeApp(
      {
        storeKitPurchase: { state: 'purchased', signedTransaction: jws('bought') },
        storeKitFinish: {},
      },
      log,
    );
    vi.stubGlobal('fetch', server({ [jws('bought')]: '2000000111' }));
    const outcome = await createMembershipFlow(bridge, TOKEN).purchase('vip.monthly', ACCOUNT, () =>
      log.push('page:verifying'),
    );
    expect(outcome).toEqual({
      state: 'confirmed',
      membership: MEMBER,
      transactionId: '2000000111',
    });
    expect(log).toEqual([
      'app:storeKitPurchase',
      'page:verifying',
      `server:${jws('bought')}`,
      'server confirmed 2000000111',
      'app:storeKitFinish',
    ]);
    expect(app.calls[0]?.params).toEqual({ productId: 'vip.monthly', appAccountToken: ACCOUNT });
    expect(app.calls.at(-1)?.params).toEqual({ transactionId: '2000000111' });
  });

  it('never finishes when the server cannot be reached or refuses', async () => {
    app = installFakeApp(
      { storeKitPurchase: { state: 'purchased', signedTransaction: jws('bought') } },
      log,
    );
    vi.stubGlobal('fetch', server({}));
    const flow = createMembershipFlow(bridge, TOKEN);
    expect(await flow.purchase('vip.monthly', ACCOUNT, () => undefined)).toEqual({
      state: 'unconfirmed',
    });
    vi.stubGlobal('fetch', server({}, 400));
    expect(await flow.purchase('vip.monthly', ACCOUNT, () => undefined)).toEqual({
      state: 'rejected',
      code: 'wrong_account',
    });
    expect(app.calls.map((call) => call.method)).not.toContain('storeKitFinish');
  });

  it('reports a cancelled, pending or failed purchase without asking the server', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const flow = createMembershipFlow(bridge, TOKEN);
    for (const [answer, expected] of [
      [{ state: 'cancelled' }, { state: 'cancelled' }],
      [{ state: 'pending' }, { state: 'pending' }],
      [new FakeAppError('cancelled', 'user cancelled'), { state: 'cancelled' }],
      [new FakeAppError('failed', 'StoreKit is unavailable'), { state: 'failed' }],
    ] as const) {
      app?.remove();
      app = installFakeApp({ storeKitPurchase: answer });
      expect(await flow.purchase('vip.monthly', ACCOUNT, () => undefined)).toEqual(expected);
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the unfinished transactions again on load and finishes those the server confirms', async () => {
    app = installFakeApp(
      {
        storeKitUnfinished: { signedTransactions: [jws('lost'), jws('still-offline')] },
        storeKitFinish: {},
      },
      log,
    );
    vi.stubGlobal('fetch', server({ [jws('lost')]: '2000000222' }));
    expect(await createMembershipFlow(bridge, TOKEN).syncUnfinished()).toEqual(MEMBER);
    expect(log).toEqual([
      'app:storeKitUnfinished',
      `server:${jws('lost')}`,
      'server confirmed 2000000222',
      'app:storeKitFinish',
      `server:${jws('still-offline')}`,
    ]);
    expect(app.calls.filter((call) => call.method === 'storeKitFinish')).toEqual([
      { method: 'storeKitFinish', params: { transactionId: '2000000222' } },
    ]);
  });
});
