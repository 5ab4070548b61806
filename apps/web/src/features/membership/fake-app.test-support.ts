import { RECEIVER_GLOBAL } from '@guquan/contract/bridge';

/**
 * Plays the iOS app for unit tests: a message handler at
 * window.webkit.messageHandlers.goodsCircle that answers through window.__goodsCircleBridge,
 * as the real app does. `answers` gives each method's result (or a thrown bridge error).
 */
export interface FakeApp {
  calls: { method: string; params: Record<string, unknown> }[];
  log: string[];
  push(event: string, data: unknown): void;
  remove(): void;
}

/** A result, a FakeAppError, or a function of the params giving one. */
type Answer = unknown;

export class FakeAppError {
  constructor(
    readonly code: string,
    readonly message: string,
  ) {}
}

interface Receiver {
  receive: (message: unknown) => void;
}

export function installFakeApp(answers: Record<string, Answer>, log: string[] = []): FakeApp {
  const calls: FakeApp['calls'] = [];
  const host = window as unknown as {
    webkit?: { messageHandlers: Record<string, { postMessage: (message: unknown) => void }> };
  } & Record<string, Receiver | undefined>;
  const reply = (message: unknown) => {
    const receiver = host[RECEIVER_GLOBAL];
    if (!receiver) throw new Error('no bridge receiver');
    receiver.receive(message);
  };
  host.webkit = {
    messageHandlers: {
      goodsCircle: {
        postMessage(raw) {
          const message = raw as { id: string; method: string; params: Record<string, unknown> };
          calls.push({ method: message.method, params: message.params });
          log.push(`app:${message.method}`);
          const answer = answers[message.method];
          queueMicrotask(() => {
            try {
              const result =
                typeof answer === 'function'
                  ? (answer as (p: unknown) => unknown)(message.params)
                  : answer;
              if (result instanceof FakeAppError) {
                reply({
                  id: message.id,
                  ok: false,
                  error: { code: result.code, message: result.message },
                });
              } else {
                reply({ id: message.id, ok: true, result: result ?? {} });
              }
            } catch (error) {
              reply({
                id: message.id,
                ok: false,
                error: { code: 'failed', message: String(error) },
              });
            }
          });
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
