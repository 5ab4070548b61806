import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { BRIDGE_PROTOCOL_VERSION, type BridgeRequest } from '@guquan/contract/bridge';
import { BridgeError, createBridge, type Bridge } from './native-bridge';

/** What the app sees of the page's window, and the one receiver it answers through. */
interface AppSide {
  webkit?: { messageHandlers?: Record<string, { postMessage: (message: unknown) => void }> };
  GoodsCircleAndroid?: {
    postMessage: (message: string) => void;
    addEventListener?: (type: 'message', listener: (event: { data: unknown }) => void) => void;
  };
  __goodsCircleBridge?: { receive: (message: unknown) => void };
}

const TOKEN = `h.p.${'a'.repeat(43)}`;
const USER_ID = 'Uq3x9TmKd2Lp7Wz1';
const SIGNED = 'aGVhZGVy.cGF5bG9hZA.c2lnbmF0dXJl';

let host: AppSide;

beforeEach(() => {
  host = {};
});

afterEach(() => {
  vi.useRealTimers();
});

function asWindow(side: AppSide): Window {
  return side as unknown as Window;
}

/** Installs an iOS handler that records what the page posts. */
function installIos(): Mock<(message: unknown) => void> {
  const postMessage = vi.fn<(message: unknown) => void>();
  host.webkit = { messageHandlers: { goodsCircle: { postMessage } } };
  return postMessage;
}

function installAndroid(): Mock<(message: string) => void> {
  const postMessage = vi.fn<(message: string) => void>();
  host.GoodsCircleAndroid = { postMessage };
  return postMessage;
}

/** The app answering: through the one global the bridge installed. */
function reply(message: unknown): void {
  const receiver = host.__goodsCircleBridge;
  if (!receiver) throw new Error('the bridge installed no receiver');
  receiver.receive(message);
}

function lastRequest(postMessage: Mock<(message: unknown) => void>): BridgeRequest {
  const call = postMessage.mock.lastCall;
  if (!call) throw new Error('nothing was posted');
  return call[0] as BridgeRequest;
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

describe('transports', () => {
  it('posts the message object to the iOS handler', () => {
    const postMessage = installIos();
    const bridge = createBridge(asWindow(host));
    expect(bridge.transport()).toBe('ios');
    void bridge.call('openAppRoute', { route: 'design/d_1' });
    expect(postMessage).toHaveBeenCalledOnce();
    expect(lastRequest(postMessage)).toEqual({
      v: BRIDGE_PROTOCOL_VERSION,
      id: expect.any(String) as string,
      method: 'openAppRoute',
      params: { route: 'design/d_1' },
    });
  });

  it('posts a JSON string to the Android interface', () => {
    const postMessage = installAndroid();
    const bridge = createBridge(asWindow(host));
    expect(bridge.transport()).toBe('android');
    void bridge.call('handshake', {});
    const sent = postMessage.mock.lastCall?.[0];
    expect(typeof sent).toBe('string');
    expect(JSON.parse(sent ?? '')).toMatchObject({ v: 1, method: 'handshake', params: {} });
  });

  it('also takes Android replies sent through the web message listener', async () => {
    const listeners: ((event: { data: unknown }) => void)[] = [];
    const postMessage = vi.fn<(message: string) => void>();
    host.GoodsCircleAndroid = {
      postMessage,
      addEventListener: (_type: 'message', listener: (event: { data: unknown }) => void) => {
        listeners.push(listener);
      },
    };
    const bridge = createBridge(asWindow(host));
    const first = bridge.call('getSession', {});
    void bridge.call('close', {});
    expect(listeners).toHaveLength(1); // one listener, however many calls
    const { id } = JSON.parse(postMessage.mock.calls[0]?.[0] ?? '{}') as { id: string };
    listeners[0]?.({ data: JSON.stringify({ id, ok: true, result: null }) });
    await expect(first).resolves.toBeNull();
  });

  it('rejects with unavailable when there is no app', async () => {
    const bridge = createBridge(asWindow(host));
    expect(bridge.transport()).toBe('none');
    const error = await rejection(bridge.call('getSession', {}));
    expect(error.code).toBe('unavailable');
  });

  it('finds a transport the app installs after the bridge was created', () => {
    const bridge = createBridge(asWindow(host));
    const postMessage = installIos();
    void bridge.call('close', {});
    expect(postMessage).toHaveBeenCalledOnce();
  });

  it('rejects with unavailable when posting throws', async () => {
    host.webkit = {
      messageHandlers: {
        goodsCircle: {
          postMessage: () => {
            throw new Error('DataCloneError');
          },
        },
      },
    };
    const error = await rejection(createBridge(asWindow(host)).call('close', {}));
    expect(error.code).toBe('unavailable');
  });

  it('gives every call its own id', () => {
    const postMessage = installIos();
    const bridge = createBridge(asWindow(host));
    void bridge.call('close', {});
    void bridge.call('close', {});
    const [first, second] = postMessage.mock.calls.map((call) => (call[0] as BridgeRequest).id);
    expect(first).not.toBe(second);
  });
});

describe('replies', () => {
  let postMessage: Mock<(message: unknown) => void>;
  let bridge: Bridge;

  beforeEach(() => {
    postMessage = installIos();
    bridge = createBridge(asWindow(host));
  });

  it('resolves with the result the app sends as an object', async () => {
    const session = bridge.call('getSession', {});
    reply({ id: lastRequest(postMessage).id, ok: true, result: { token: TOKEN, userId: USER_ID } });
    await expect(session).resolves.toEqual({ token: TOKEN, userId: USER_ID });
  });

  it('resolves with the result the app sends as a JSON string', async () => {
    const handshake = bridge.call('handshake', {});
    const result = { bridgeVersion: 1, platform: 'android', appVersion: '3.2.0' };
    reply(JSON.stringify({ id: lastRequest(postMessage).id, ok: true, result }));
    await expect(handshake).resolves.toEqual(result);
  });

  it('answers each call with its own reply, in any order', async () => {
    const first = bridge.call('getSession', {});
    const firstId = lastRequest(postMessage).id;
    const second = bridge.call('storeKitProducts', { productIds: ['vip.monthly'] });
    const secondId = lastRequest(postMessage).id;
    const products = [{ id: 'vip.monthly', displayName: '月卡', displayPrice: '¥25.00' }];
    reply({ id: secondId, ok: true, result: { products } });
    reply({ id: firstId, ok: true, result: null });
    await expect(first).resolves.toBeNull();
    await expect(second).resolves.toEqual({ products });
  });

  it('turns an error reply into a BridgeError with its code and message', async () => {
    const purchase = bridge.call('storeKitPurchase', {
      productId: 'vip.monthly',
      appAccountToken: '6f1c2b8e-6a0f-4d3e-9b1a-2c3d4e5f6a7b',
    });
    reply({
      id: lastRequest(postMessage).id,
      ok: false,
      error: { code: 'failed', message: 'StoreKit said no' },
    });
    const error = await rejection(purchase);
    expect(error.code).toBe('failed');
    expect(error.message).toBe('StoreKit said no');
  });

  it('keeps codes it does not know (a newer app)', async () => {
    const call = bridge.call('close', {});
    reply({ id: lastRequest(postMessage).id, ok: false, error: { code: 'busy', message: 'x' } });
    expect((await rejection(call)).code).toBe('busy');
  });

  it('rejects a result that does not match the method with bad_reply', async () => {
    const session = bridge.call('getSession', {});
    reply({ id: lastRequest(postMessage).id, ok: true, result: { token: 'short' } });
    expect((await rejection(session)).code).toBe('bad_reply');
  });

  it('rejects an unreadable reply to a waiting call at once with bad_reply', async () => {
    const session = bridge.call('getSession', {});
    reply({ id: lastRequest(postMessage).id, ok: false, error: 'no' });
    expect((await rejection(session)).code).toBe('bad_reply');
  });

  it('ignores replies that are not JSON, not ours or not messages', async () => {
    const session = bridge.call('getSession', {});
    const { id } = lastRequest(postMessage);
    reply('{not json');
    reply(42);
    reply(null);
    reply({ id: 'someone-else', ok: true, result: null });
    reply({ id, ok: true, result: null });
    await expect(session).resolves.toBeNull();
  });
});

describe('timeouts', () => {
  it('rejects with timeout after the default time and ignores a late reply', async () => {
    vi.useFakeTimers();
    const postMessage = installIos();
    const bridge = createBridge(asWindow(host));
    const session = bridge.call('getSession', {});
    const outcome = rejection(session);
    vi.advanceTimersByTime(9_999);
    let settled = false;
    void outcome.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    expect((await outcome).code).toBe('timeout');
    expect(() => {
      reply({ id: lastRequest(postMessage).id, ok: true, result: null });
    }).not.toThrow();
  });

  it('waits longer for calls that wait for the user, and as long as the caller says', async () => {
    vi.useFakeTimers();
    installIos();
    const bridge = createBridge(asWindow(host));
    const login = rejection(bridge.call('login', {}));
    const quick = rejection(bridge.call('login', {}, { timeoutMs: 50 }));
    vi.advanceTimersByTime(50);
    expect((await quick).code).toBe('timeout');
    let loginSettled = false;
    void login.then(() => (loginSettled = true));
    vi.advanceTimersByTime(60_000);
    await Promise.resolve();
    expect(loginSettled).toBe(false);
    vi.advanceTimersByTime(120_000);
    expect((await login).code).toBe('timeout');
  });

  it('clears the timer of a call that was answered', async () => {
    vi.useFakeTimers();
    const postMessage = installIos();
    const bridge = createBridge(asWindow(host));
    const call = bridge.call('close', {});
    reply({ id: lastRequest(postMessage).id, ok: true, result: {} });
    await expect(call).resolves.toEqual({});
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('events', () => {
  it('dispatches validated data to each subscriber until it unsubscribes', () => {
    installIos();
    const bridge = createBridge(asWindow(host));
    const first = vi.fn();
    const second = vi.fn();
    const unsubscribe = bridge.on('transactionUpdated', first);
    bridge.on('transactionUpdated', second);
    reply({ event: 'transactionUpdated', data: { signedTransaction: SIGNED } });
    expect(first).toHaveBeenCalledWith({ signedTransaction: SIGNED });
    expect(second).toHaveBeenCalledOnce();

    unsubscribe();
    reply(JSON.stringify({ event: 'transactionUpdated', data: { signedTransaction: SIGNED } }));
    expect(first).toHaveBeenCalledOnce();
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('drops events with invalid data and events it does not know', () => {
    const bridge = createBridge(asWindow(host));
    const handler = vi.fn();
    bridge.on('transactionUpdated', handler);
    reply({ event: 'transactionUpdated', data: { signedTransaction: 'not a jws' } });
    reply({ event: 'toString', data: {} });
    reply({ event: 'somethingNew', data: {} });
    expect(handler).not.toHaveBeenCalled();
  });

  it('delivers only to subscribers of that event', () => {
    const bridge = createBridge(asWindow(host));
    const resumed = vi.fn();
    const updated = vi.fn();
    bridge.on('resumed', resumed);
    bridge.on('transactionUpdated', updated);
    reply({ event: 'resumed', data: {} });
    expect(resumed).toHaveBeenCalledWith({});
    expect(updated).not.toHaveBeenCalled();
  });

  it('keeps two subscriptions of the same function apart', () => {
    const bridge = createBridge(asWindow(host));
    const handler = vi.fn();
    const unsubscribeFirst = bridge.on('resumed', handler);
    bridge.on('resumed', handler);
    unsubscribeFirst();
    reply({ event: 'resumed', data: {} });
    expect(handler).toHaveBeenCalledOnce();
  });

  it('still reaches the other subscribers when one throws, and reports the error', () => {
    const reportError = vi.fn();
    vi.stubGlobal('reportError', reportError);
    const bridge = createBridge(asWindow(host));
    const failure = new Error('handler bug');
    const later = vi.fn();
    bridge.on('resumed', () => {
      throw failure;
    });
    bridge.on('resumed', later);
    expect(() => {
      reply({ event: 'resumed', data: {} });
    }).not.toThrow();
    expect(later).toHaveBeenCalledOnce();
    expect(reportError).toHaveBeenCalledWith(failure);
    vi.unstubAllGlobals();
  });
});
