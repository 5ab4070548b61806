import {
  ANDROID_INTERFACE_NAME,
  BRIDGE_PROTOCOL_VERSION,
  bridgeEvents,
  bridgeIncomingSchema,
  bridgeMethods,
  IOS_HANDLER_NAME,
  RECEIVER_GLOBAL,
  type BridgeErrorCode,
  type BridgeEvent,
  type BridgeEventData,
  type BridgeMethod,
  type BridgeParams,
  type BridgeRequest,
  type BridgeResult,
} from '@guquan/contract/bridge';

/**
 * The only code that talks to the 谷圈 app (docs/bridge-protocol.md). Calls are promises with a
 * timeout; the app answers through one global receiver; events reach the handlers subscribed.
 */
export class BridgeError extends Error {
  override name = 'BridgeError';
  constructor(
    readonly code: BridgeErrorCode | (string & {}),
    message: string,
  ) {
    super(message);
  }
}

type Transport = (message: string | BridgeRequest) => void;

interface BridgeWindow {
  webkit?: { messageHandlers?: Record<string, { postMessage: (message: unknown) => void }> };
  /**
   * With androidx.webkit's addWebMessageListener the object also delivers the app's
   * JavaScriptReplyProxy messages as 'message' events: the reply path we listen on besides the
   * receiver global.
   */
  [ANDROID_INTERFACE_NAME]?: {
    postMessage: (message: string) => void;
    addEventListener?: (type: 'message', listener: (event: { data: unknown }) => void) => void;
  };
  [RECEIVER_GLOBAL]?: { receive: (message: unknown) => void };
}

/** Per-call time limits: calls that wait for the user get minutes, the others seconds. */
const TIMEOUTS_MS: Partial<Record<BridgeMethod, number>> = {
  login: 180_000,
  storeKitPurchase: 600_000,
  storeKitRestore: 180_000,
  storeKitManageSubscriptions: 600_000,
};
const DEFAULT_TIMEOUT_MS = 10_000;

export interface CallOptions {
  timeoutMs?: number;
}

export interface Bridge {
  /** Which app transport is there now: iOS, Android, or none (an ordinary browser). */
  transport(): 'ios' | 'android' | 'none';
  call<M extends BridgeMethod>(
    method: M,
    params: BridgeParams<M>,
    options?: CallOptions,
  ): Promise<BridgeResult<M>>;
  on<E extends BridgeEvent>(event: E, handler: (data: BridgeEventData<E>) => void): () => void;
}

interface Pending {
  method: BridgeMethod;
  resolve: (value: unknown) => void;
  reject: (error: BridgeError) => void;
  timer: ReturnType<typeof setTimeout>;
}

export function createBridge(win: Window): Bridge {
  const host = win as unknown as BridgeWindow;
  const pending = new Map<string, Pending>();
  const handlers = new Map<string, Set<(data: unknown) => void>>();
  let sequence = 0;
  // The Android objects whose reply messages we already listen to (one listener each).
  const listening = new WeakSet<object>();

  const findTransport = (): { kind: 'ios' | 'android'; send: Transport } | undefined => {
    const ios = host.webkit?.messageHandlers?.[IOS_HANDLER_NAME];
    if (ios)
      return {
        kind: 'ios',
        send: (message) => {
          ios.postMessage(message);
        },
      };
    const android = host[ANDROID_INTERFACE_NAME];
    if (android) {
      if (!listening.has(android)) {
        listening.add(android);
        android.addEventListener?.('message', (event) => {
          receive(event.data);
        });
      }
      return {
        kind: 'android',
        send: (message) => {
          android.postMessage(JSON.stringify(message));
        },
      };
    }
    return undefined;
  };

  const settle = (id: string, outcome: (call: Pending) => void) => {
    const call = pending.get(id);
    if (!call) return; // late (after its timeout) or not ours
    pending.delete(id);
    clearTimeout(call.timer);
    outcome(call);
  };

  const dispatch = (event: string, raw: unknown) => {
    // Own keys only: an event named "toString" must not reach Object.prototype.
    if (!Object.hasOwn(bridgeEvents, event)) return;
    const data = bridgeEvents[event as BridgeEvent].safeParse(raw);
    if (!data.success) return;
    // A copy: a handler may unsubscribe while we go through them.
    for (const handler of [...(handlers.get(event) ?? [])]) {
      try {
        handler(data.data);
      } catch (error) {
        // One failing handler must neither stop the others nor throw into the app's call.
        reportHandlerError(error);
      }
    }
  };

  const receive = (raw: unknown) => {
    let value = raw;
    if (typeof raw === 'string') {
      try {
        value = JSON.parse(raw);
      } catch {
        return;
      }
    }
    const parsed = bridgeIncomingSchema.safeParse(value);
    if (!parsed.success) {
      // A reply we wait for but cannot read fails its call now rather than at its timeout.
      const id = replyId(value);
      if (id !== undefined) {
        settle(id, (call) => {
          call.reject(
            new BridgeError('bad_reply', `The app's answer to ${call.method} is malformed.`),
          );
        });
      }
      return;
    }
    const message = parsed.data;
    if ('event' in message) {
      dispatch(message.event, message.data);
      return;
    }
    settle(message.id, (call) => {
      if (!message.ok) {
        call.reject(new BridgeError(message.error.code, message.error.message));
        return;
      }
      const result = bridgeMethods[call.method].result.safeParse(message.result);
      if (result.success) call.resolve(result.data);
      else
        call.reject(
          new BridgeError('bad_reply', `The app's answer to ${call.method} is malformed.`),
        );
    });
  };
  host[RECEIVER_GLOBAL] = { receive };

  return {
    transport: () => findTransport()?.kind ?? 'none',
    call(method, params, options = {}) {
      const transport = findTransport();
      if (!transport) {
        return Promise.reject(new BridgeError('unavailable', 'This page needs the 谷圈 app.'));
      }
      sequence += 1;
      const id = `${Date.now().toString(36)}-${sequence}`;
      const timeoutMs = options.timeoutMs ?? TIMEOUTS_MS[method] ?? DEFAULT_TIMEOUT_MS;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new BridgeError('timeout', `The app did not answer ${method} in time.`));
        }, timeoutMs);
        pending.set(id, {
          method,
          resolve: resolve as (value: unknown) => void,
          reject,
          timer,
        });
        try {
          transport.send({ v: BRIDGE_PROTOCOL_VERSION, id, method, params });
        } catch {
          pending.delete(id);
          clearTimeout(timer);
          reject(new BridgeError('unavailable', 'The app could not be reached.'));
        }
      });
    },
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      handlers.set(event, set);
      // A wrapper per subscription: the same function subscribed twice is unsubscribed once each.
      const wrapped = (data: unknown) => {
        handler(data as BridgeEventData<typeof event>);
      };
      set.add(wrapped);
      return () => {
        set.delete(wrapped);
      };
    },
  };
}

/** The id of something shaped like a reply (`{ id: string, ok: boolean }`), if it is one. */
function replyId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, ok } = value as { id?: unknown; ok?: unknown };
  return typeof id === 'string' && typeof ok === 'boolean' ? id : undefined;
}

/** Reports as an uncaught error would (window 'error' event, console) without throwing. */
function reportHandlerError(error: unknown): void {
  if (typeof globalThis.reportError === 'function') globalThis.reportError(error);
  else console.error(error);
}

let shared: Bridge | undefined;

/** The page's one bridge (browser only). */
export function getBridge(): Bridge {
  shared ??= createBridge(window);
  return shared;
}
