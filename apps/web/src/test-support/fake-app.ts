import { RECEIVER_GLOBAL } from '@guquan/contract/bridge';

/**
 * The one fake native app of the unit tests: it plays the iOS app, a message handler at
 * window.webkit.messageHandlers.goodsCircle that answers through window.__goodsCircleBridge in a
 * later task, as the real app does. `answers` gives each method's result: a value, a FakeAppError,
 * or a function of the call's params giving one (read at call time, so a test can change it). A
 * method without an answer succeeds with `{}`.
 */
export interface FakeApp {
  /** Every call the page made, in order. */
  calls: { method: string; params: Record<string, unknown> }[];
  /** `app:<method>` per call, shared with whatever else the test logs (to check the order). */
  log: string[];
  /** Sends an event, e.g. `transactionUpdated`, as the app does unasked. */
  push(event: string, data: unknown): void;
  remove(): void;
}

/** The app answers the call with this bridge error. */
export class FakeAppError {
  constructor(
    readonly code: string,
    readonly message: string,
  ) {}
}

export type FakeAnswer = unknown;

interface Receiver {
  receive: (message: unknown) => void;
}

interface BridgeMessage {
  id: string;
  method: string;
  params: Record<string, unknown>;
}

type AppHost = {
  webkit?: { messageHandlers: Record<string, { postMessage: (message: unknown) => void }> };
} & Record<string, Receiver | undefined>;

function isMessage(value: unknown): value is BridgeMessage {
  return typeof value === 'object' && value !== null && 'id' in value && 'method' in value;
}

function resultOf(answer: FakeAnswer, params: Record<string, unknown>): unknown {
  return typeof answer === 'function' ? (answer as (p: unknown) => unknown)(params) : answer;
}

export function installFakeApp(answers: Record<string, FakeAnswer>, log: string[] = []): FakeApp {
  const calls: FakeApp['calls'] = [];
  // The globals the iOS app adds to the page's window.
  const host = window as unknown as AppHost;
  const reply = (message: unknown) => {
    const receiver = host[RECEIVER_GLOBAL];
    if (!receiver) throw new Error('no bridge receiver');
    receiver.receive(message);
  };
  host.webkit = {
    messageHandlers: {
      goodsCircle: {
        postMessage(raw) {
          if (!isMessage(raw)) throw new Error('not a bridge message');
          calls.push({ method: raw.method, params: raw.params });
          log.push(`app:${raw.method}`);
          setTimeout(() => {
            try {
              const result = raw.method in answers ? resultOf(answers[raw.method], raw.params) : {};
              if (result instanceof FakeAppError) {
                reply({
                  id: raw.id,
                  ok: false,
                  error: { code: result.code, message: result.message },
                });
              } else {
                reply({ id: raw.id, ok: true, result: result === undefined ? {} : result });
              }
            } catch (error) {
              reply({ id: raw.id, ok: false, error: { code: 'failed', message: String(error) } });
            }
          }, 0);
        },
      },
    },
  };
  return {
    calls,
    log,
    push: (event, data) => {
      reply({ event, data });
    },
    remove: () => {
      delete host.webkit;
    },
  };
}
