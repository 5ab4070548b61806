import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { backOff } from '../timing/back-off.ts';
import { sleep } from '../timing/sleep.ts';

/**
 * Deliveries sent as the platform sends them (PRODUCT.md, "Events in"; docs/platform.md): signed
 * with Standard Webhooks and retried until the site answers for good. One mechanism for whoever
 * sends them: `npm run platform:import -- --to`, the stand-in's demo community, the tests' signed
 * requests. A delivery keeps its `webhook-id` across attempts (the site applies an id once) and is
 * signed afresh at each, so a retry after minutes is not refused as stale.
 */

/** The body exactly as it is signed and sent. */
type DeliveryBody = string | Buffer;

/** A new delivery's `webhook-id` (`msg_<label>_…` with a label, for whoever reads the ids). */
export function newWebhookId(label?: string): string {
  const unique = randomUUID().replaceAll('-', '');
  return label === undefined ? `msg_${unique}` : `msg_${label}_${unique}`;
}

/** The Standard Webhooks headers of `body` (secret `whsec_<base64>`), signed as at `at`. */
export function signedHeaders(
  secret: string,
  id: string,
  body: DeliveryBody,
  at: Date,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

/** What a transport is asked to send: the body exactly as signed, and its headers. */
export interface SignedDelivery<Body extends DeliveryBody = DeliveryBody> {
  body: Body;
  headers: Record<string, string>;
  /** Ends the attempt early (besides the transport's own timeout). */
  signal?: AbortSignal;
}

/** The site's answer to one attempt. */
export interface DeliveryAnswer {
  status: number;
  body: string;
  retryAfterSeconds?: number;
}

/** Sends one attempt: the site's answer, or a thrown error when none came (refused, timed out). */
export type PostDelivery<Body extends DeliveryBody = DeliveryBody> = (
  delivery: SignedDelivery<Body>,
) => Promise<DeliveryAnswer>;

/**
 * Posts over HTTP to `url`, each attempt within `timeoutMs`. A redirect is an answer like any
 * other (retried unless final) unless `redirect: 'follow'`.
 */
export function postTo(
  url: string | URL,
  {
    timeoutMs = 30_000,
    redirect = 'manual',
  }: { timeoutMs?: number; redirect?: RequestRedirect } = {},
): PostDelivery {
  return async ({ body, headers, signal }) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await fetch(url, {
      method: 'POST',
      body: typeof body === 'string' ? body : new Uint8Array(body),
      headers,
      redirect,
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      status: response.status,
      body: await response.text(),
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    };
  };
}

/** An attempt that failed and will be made again after `waitMs`. */
export interface FailedAttempt {
  /** 1 for the first attempt. */
  attempt: number;
  /** The site's status, or the error when no answer came. */
  status?: number;
  error?: string;
  waitMs: number;
}

/** What went wrong, in a few words: `503 Service Unavailable`, or the error's message. */
export function failureText({ status, error }: Pick<FailedAttempt, 'status' | 'error'>): string {
  return status === undefined
    ? (error ?? 'no answer')
    : `${status} ${STATUS_CODES[status] ?? ''}`.trim();
}

/** Every attempt of a bounded delivery failed. */
export class DeliveryGaveUp extends Error {
  constructor(
    attempts: number,
    /** What went wrong the last time (`failureText`). */
    readonly lastFailure: string,
  ) {
    super(`gave up after ${attempts} attempts: ${lastFailure}`);
    this.name = 'DeliveryGaveUp';
  }
}

interface SignedSend<Body extends DeliveryBody> {
  /** `whsec_<base64>`: a secret the site knows as one of PLATFORM_WEBHOOK_SECRETS. */
  secret: string;
  body: Body;
  post: PostDelivery<Body>;
  /** Statuses besides 200 that end the delivery: answers no retry would change. */
  isFinal: (status: number) => boolean;
  /** Its `webhook-id` (a new one unless given). */
  webhookId?: string;
  /** Attempts before giving up with DeliveryGaveUp; until a final answer if not given. */
  attempts?: number;
  /** The wait after the first failure; it doubles up to `maxWaitMs`. */
  firstWaitMs?: number;
  maxWaitMs?: number;
  /** Stops the attempts and the waiting between them. */
  signal?: AbortSignal;
  onRetry?: (failed: FailedAttempt) => void;
  /** How a wait is waited (tests pass a quick one). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock the signatures are dated by. */
  now?: () => Date;
}

/**
 * Sends `body` signed until the site answers 200 or a final status, and returns that answer. Any
 * other answer, or none, is retried after a back-off (doubling, capped at `maxWaitMs`), or the
 * site's `Retry-After` when longer (within the same cap).
 */
export async function sendSigned<Body extends DeliveryBody>(
  send: SignedSend<Body>,
): Promise<DeliveryAnswer> {
  const id = send.webhookId ?? newWebhookId();
  const now = send.now ?? (() => new Date());
  const wait = send.wait ?? sleep;
  const firstWaitMs = send.firstWaitMs ?? 500;
  const maxWaitMs = send.maxWaitMs ?? 30_000;
  for (let attempt = 1; ; attempt++) {
    send.signal?.throwIfAborted();
    let failure: Pick<FailedAttempt, 'status' | 'error'>;
    let retryAfterMs = 0;
    try {
      const answer = await send.post({
        body: send.body,
        headers: signedHeaders(send.secret, id, send.body, now()),
      });
      if (answer.status === 200 || send.isFinal(answer.status)) return answer;
      failure = { status: answer.status };
      retryAfterMs = (answer.retryAfterSeconds ?? 0) * 1000;
    } catch (error) {
      send.signal?.throwIfAborted();
      failure = { error: error instanceof Error ? error.message : String(error) };
    }
    if (send.attempts !== undefined && attempt >= send.attempts) {
      throw new DeliveryGaveUp(send.attempts, failureText(failure));
    }
    const waitMs = Math.max(
      backOff({ attempt, firstMs: firstWaitMs, maxMs: maxWaitMs }),
      Math.min(retryAfterMs, maxWaitMs),
    );
    send.onRetry?.({ attempt, ...failure, waitMs });
    await wait(waitMs, send.signal);
  }
}
