import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError, createBridge, type Bridge } from '../../lib/bridge/native-bridge';
import { createDemoApi, DEMO_PATHS } from './demo-api';
import {
  createFakeDemoServer,
  DEMO_USERS,
  memoryStorage,
  type FakeDemoServer,
} from '../../test-support/fake-demo-server';
import { createSimulatedApp, PENDING_APPROVAL_MS, type SimulatedApp } from './simulated-app';
import { SIMULATED_PRODUCTS } from './simulated-products';
import { createSimulatorStore, type SimulatorStore } from './simulator-state';
import { authTimeOf } from './token-claims';
import { createTransactionKeeper } from './transaction-keeper';
import { EVENTUALLY } from '../../test-support/eventually';

/** A page's window with the simulated app wired in as install-simulator wires it. */
interface Host {
  webkit?: { messageHandlers: Record<string, { postMessage: (message: unknown) => void }> };
  __goodsCircleBridge?: { receive: (message: unknown) => void };
}

const ACCOUNT_TOKEN = '6f1c2b8e-6a0f-4d3e-9b1a-2c3d4e5f6a7b';
const [FIRST_USER, SECOND_USER] = DEMO_USERS;

let host: Host;
let server: FakeDemoServer;
let sessionStorage: Storage;
let localStorage: Storage;
let store: SimulatorStore;
let app: SimulatedApp;
let bridge: Bridge;
let delivered: unknown[];
let now: number;

function start() {
  store = createSimulatorStore(sessionStorage);
  app = createSimulatedApp({
    store,
    keeper: createTransactionKeeper(localStorage),
    api: createDemoApi(server.fetch),
    deliver: (message) => {
      delivered.push(message);
      host.__goodsCircleBridge?.receive(message);
    },
    now: () => now,
  });
  host = {
    webkit: {
      messageHandlers: {
        goodsCircle: {
          postMessage: (message) => {
            app.receive(structuredClone(message));
          },
        },
      },
    },
  };
  bridge = createBridge(host as unknown as Window);
}

async function rejection(promise: Promise<unknown>): Promise<BridgeError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof BridgeError))
    throw new Error(`expected a BridgeError, got ${String(error)}`);
  return error;
}

/** Posts a raw message, as a page with another bridge version (or a bug) would. */
function postRaw(message: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const receiver = { receive: resolve };
    host.__goodsCircleBridge = receiver;
    host.webkit?.messageHandlers.goodsCircle?.postMessage(message);
  });
}

beforeEach(() => {
  server = createFakeDemoServer();
  sessionStorage = memoryStorage();
  localStorage = memoryStorage();
  delivered = [];
  now = Date.parse('2026-03-01T00:00:00Z');
  start();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('handshake', () => {
  it('reports bridge version 1 on iOS by default', async () => {
    await expect(bridge.call('handshake', {})).resolves.toEqual({
      bridgeVersion: 1,
      platform: 'ios',
      appVersion: 'simulator',
    });
    expect(typeof delivered[0]).toBe('object');
  });

  it('reports Android, answering in JSON strings as the Android app does', async () => {
    store.changeSettings({ platform: 'android' });
    await expect(bridge.call('handshake', {})).resolves.toMatchObject({ platform: 'android' });
    expect(typeof delivered[0]).toBe('string');
  });
});

describe('sessions', () => {
  it('has no session until a demo user is picked, then the one the server issued', async () => {
    await expect(bridge.call('getSession', {})).resolves.toBeNull();
    await app.logIn(FIRST_USER.id);
    const session = await bridge.call('getSession', {});
    expect(session?.userId).toBe(FIRST_USER.id);
    expect(server.tokens.get(session?.token ?? '')).toBe(FIRST_USER.id);
  });

  it('keeps the session across a reload of the tab (sessionStorage)', async () => {
    await app.logIn(SECOND_USER.id);
    start();
    await expect(bridge.call('getSession', {})).resolves.toMatchObject({ userId: SECOND_USER.id });
  });

  it('logs out locally, as the app logs out with the platform: getSession answers null', async () => {
    await app.logIn(FIRST_USER.id);
    const requests = server.requests.length;
    app.logOut();
    await expect(bridge.call('getSession', {})).resolves.toBeNull();
    expect(server.requests).toHaveLength(requests);
  });

  it('hands a refreshed token of the same log-in on getSession, as the app does', async () => {
    await app.logIn(FIRST_USER.id);
    const first = store.get().session?.token ?? '';
    const session = await bridge.call('getSession', {});
    expect(session?.token).not.toBe(first);
    expect(session?.userId).toBe(FIRST_USER.id);
    // The refresh keeps the log-in's auth_time.
    const logIn = server.requests.find((request) => request.url === DEMO_PATHS.sessions);
    expect(logIn?.body).toEqual({ userId: FIRST_USER.id });
    expect(server.requests.at(-1)?.body).toEqual({
      userId: FIRST_USER.id,
      authTime: authTimeOf(first),
    });
    expect(authTimeOf(first)).toBeGreaterThan(0);
    expect(store.get().session?.token).toBe(session?.token);
  });

  it('treats an expired session as logged out', async () => {
    await app.logIn(FIRST_USER.id);
    now = Date.parse('2100-01-01T00:00:00Z');
    await expect(bridge.call('getSession', {})).resolves.toBeNull();
  });

  it('shows a failed log-in in the panel', async () => {
    await app.logIn('NoSuchUser000000');
    expect(store.get().problem).toMatch(/no such demo user/);
    expect(store.get().session).toBeNull();
  });
});

describe('login', () => {
  it('answers with the current session when someone is logged in', async () => {
    await app.logIn(FIRST_USER.id);
    await expect(bridge.call('login', {})).resolves.toMatchObject({ userId: FIRST_USER.id });
  });

  it('opens the panel and waits for the tester to pick a user', async () => {
    const login = bridge.call('login', {});
    await vi.waitFor(() => {
      expect(store.get()).toMatchObject({ open: true, loginRequested: true });
    }, EVENTUALLY);
    await app.logIn(SECOND_USER.id);
    await expect(login).resolves.toMatchObject({ userId: SECOND_USER.id });
    expect(store.get().loginRequested).toBe(false);
  });

  it('answers null when the tester declines', async () => {
    const login = bridge.call('login', {});
    await vi.waitFor(() => {
      expect(store.get().loginRequested).toBe(true);
    }, EVENTUALLY);
    app.declineLogin();
    await expect(login).resolves.toBeNull();
  });

  it('logs in the first demo user at once in auto mode', async () => {
    store.changeSettings({ autoLogin: true });
    await expect(bridge.call('login', {})).resolves.toMatchObject({ userId: FIRST_USER.id });
    expect(store.get().loginRequested).toBe(false);
  });
});

describe('screens', () => {
  it('close shows that the app would close the page', async () => {
    await expect(bridge.call('close', {})).resolves.toEqual({});
    expect(store.get().notices.map((notice) => notice.text)).toEqual([
      'The app would close this page now.',
    ]);
  });

  it('openAppRoute shows the route, and coming back sends resumed', async () => {
    const resumed = vi.fn();
    bridge.on('resumed', resumed);
    await bridge.call('openAppRoute', { route: 'design/Ab12Cd34Ef56Gh78' });
    const [notice] = store.get().notices;
    expect(notice?.text).toContain('design/Ab12Cd34Ef56Gh78');
    app.dismissNotice(notice?.id ?? -1);
    expect(store.get().notices).toEqual([]);
    await vi.waitFor(() => {
      expect(resumed).toHaveBeenCalledWith({});
    }, EVENTUALLY);
  });

  it('accountDeleted shows a notice and keeps the session while the page is open', async () => {
    await app.logIn(FIRST_USER.id);
    await bridge.call('accountDeleted', { deletesAt: '2026-03-16T00:00:00+08:00' });
    expect(store.get().notices[0]?.text).toContain('2026-03-16T00:00:00+08:00');
    await expect(bridge.call('getSession', {})).resolves.not.toBeNull();
  });
});

describe('StoreKit', () => {
  const purchase = () =>
    bridge.call('storeKitPurchase', { productId: 'vip.monthly', appAccountToken: ACCOUNT_TOKEN });

  it('lists the products it knows with their localized prices, leaving out others', async () => {
    const { products } = await bridge.call('storeKitProducts', {
      productIds: ['vip.yearly', 'vip.unknown', 'vip.monthly'],
    });
    expect(products.map((product) => [product.id, product.displayPrice])).toEqual([
      ['vip.yearly', '¥238.00'],
      ['vip.monthly', '¥25.00'],
    ]);
    expect(SIMULATED_PRODUCTS.map((product) => product.displayPrice)).toEqual([
      '¥25.00',
      '¥68.00',
      '¥238.00',
    ]);
  });

  it('approves: the demo server signs for the logged-in user and the transaction stays unfinished', async () => {
    await app.logIn(FIRST_USER.id);
    const token = store.get().session?.token;
    const result = await purchase();
    if (result.state !== 'purchased') throw new Error(`expected purchased, got ${result.state}`);
    const signing = server.requests.find((request) => request.url.endsWith('/transactions'));
    expect(signing).toEqual({
      method: 'POST',
      url: '/anime_merch_web/api/v1/demo/storekit/transactions',
      authorization: `Bearer ${token ?? ''}`,
      body: { productId: 'vip.monthly', appAccountToken: ACCOUNT_TOKEN },
    });
    expect(store.get().unfinishedCount).toBe(1);
    await expect(bridge.call('storeKitUnfinished', {})).resolves.toEqual({
      signedTransactions: [result.signedTransaction],
    });
  });

  it('keeps unfinished transactions across launches until the page finishes them', async () => {
    await app.logIn(FIRST_USER.id);
    await purchase();
    await purchase();
    const [first, second] = JSON.parse(
      localStorage.getItem('guquan.bridgeSimulator.transactions') ?? '[]',
    ) as { transactionId: string; signedTransaction: string }[];
    start(); // a new page load: the App Store still holds them
    await bridge.call('storeKitFinish', { transactionId: first?.transactionId ?? '' });
    await expect(bridge.call('storeKitUnfinished', {})).resolves.toEqual({
      signedTransactions: [second?.signedTransaction],
    });
    expect(store.get().unfinishedCount).toBe(1);
    // Restore gives every transaction the user has, finished or not.
    const restored = await bridge.call('storeKitRestore', {});
    expect(restored.signedTransactions).toHaveLength(2);
  });

  it('cancels', async () => {
    store.changeSettings({ purchaseOutcome: 'cancel' });
    await expect(purchase()).resolves.toEqual({ state: 'cancelled' });
  });

  it('fails with code failed', async () => {
    store.changeSettings({ purchaseOutcome: 'fail' });
    expect((await rejection(purchase())).code).toBe('failed');
  });

  it('fails when nobody is logged in or the demo server refuses to sign', async () => {
    expect((await rejection(purchase())).message).toMatch(/Nobody is logged in/);
    await app.logIn(FIRST_USER.id);
    server.failPath('/anime_merch_web/api/v1/demo/storekit/transactions', 404);
    const error = await rejection(purchase());
    expect(error.code).toBe('failed');
    expect(error.message).toContain('Simulated outage.');
    expect(store.get().unfinishedCount).toBe(0);
  });

  it('fails for a product the App Store does not have', async () => {
    const error = await rejection(
      bridge.call('storeKitPurchase', { productId: 'vip.never', appAccountToken: ACCOUNT_TOKEN }),
    );
    expect(error.code).toBe('failed');
  });

  it('pending: answers pending, then sends the approved transaction as an event', async () => {
    vi.useFakeTimers();
    await app.logIn(FIRST_USER.id);
    store.changeSettings({ purchaseOutcome: 'pending' });
    const updated = vi.fn();
    bridge.on('transactionUpdated', updated);
    const result = purchase();
    await vi.advanceTimersByTimeAsync(0);
    await expect(result).resolves.toEqual({ state: 'pending' });
    await vi.advanceTimersByTimeAsync(PENDING_APPROVAL_MS - 10);
    expect(updated).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(20);
    expect(updated).toHaveBeenCalledOnce();
    const [kept] = JSON.parse(
      localStorage.getItem('guquan.bridgeSimulator.transactions') ?? '[]',
    ) as { signedTransaction: string; finished: boolean }[];
    expect(kept?.finished).toBe(false);
    expect(updated).toHaveBeenCalledWith({ signedTransaction: kept?.signedTransaction });
  });
});

describe('delays, dropped replies and bad requests', () => {
  it('delays replies by the chosen time', async () => {
    vi.useFakeTimers();
    store.changeSettings({ delayMs: 1_500 });
    let answered = false;
    const call = bridge.call('getSession', {}).then((value) => {
      answered = true;
      return value;
    });
    await vi.advanceTimersByTimeAsync(1_499);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toBeNull();
  });

  it('drops replies: the page times out', async () => {
    vi.useFakeTimers();
    store.changeSettings({ dropReplies: true });
    const call = rejection(bridge.call('close', {}, { timeoutMs: 2_000 }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect((await call).code).toBe('timeout');
    expect(delivered).toEqual([]);
    // What the app did still happened: only the answer was lost.
    expect(store.get().notices).toHaveLength(1);
  });

  it('answers an unknown method with unsupported_method', async () => {
    await expect(
      postRaw({ v: 1, id: 'x-1', method: 'scanQrCode', params: {} }),
    ).resolves.toMatchObject({ id: 'x-1', ok: false, error: { code: 'unsupported_method' } });
    await expect(
      postRaw({ v: 1, id: 'x-2', method: 'constructor', params: {} }),
    ).resolves.toMatchObject({ error: { code: 'unsupported_method' } });
  });

  it('answers a newer protocol version with unsupported_method', async () => {
    await expect(
      postRaw({ v: 2, id: 'x-3', method: 'handshake', params: {} }),
    ).resolves.toMatchObject({ id: 'x-3', ok: false, error: { code: 'unsupported_method' } });
  });

  it('answers invalid params with failed', async () => {
    await expect(
      postRaw({ v: 1, id: 'x-4', method: 'openAppRoute', params: { route: '../../etc' } }),
    ).resolves.toMatchObject({ id: 'x-4', ok: false, error: { code: 'failed' } });
  });
});
