import { randomUUID } from 'node:crypto';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { PlatformEvent } from '@guquan/contract/platform-events';

/**
 * The stand-in platform's delivery client: events sent to the site's `POST …/platform/events` as
 * the platform sends them (PRODUCT.md, "Events in"), in batches of at most 500, each signed with
 * Standard Webhooks. A batch keeps its `webhook-id` across retries (the site applies an id once)
 * and is signed again at each attempt (a fresh `webhook-timestamp`); failures are retried with
 * back-off until the site answers 200. Only an answer that no retry can change stops it: 400 (the
 * site names what is wrong with the events) and 413 (too large).
 */

/** The most events one delivery may carry (PRODUCT.md). */
export const MAX_EVENTS_PER_DELIVERY = 500;

/** What the transport is asked to send: the body exactly as signed, and its headers. */
export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

/** The site's answer, or a thrown error when none came (refused connection, timeout). */
export type PostDelivery = (delivery: SignedDelivery) => Promise<{
  status: number;
  body: string;
  retryAfterSeconds?: number;
}>;

export interface RetryNotice {
  /** 0-based index of the batch, and how many attempts it has had. */
  batch: number;
  attempt: number;
  /** The site's status, or the error when no answer came. */
  status?: number;
  error?: string;
  waitMs: number;
}

export interface DeliverOptions {
  /** `whsec_<base64>`: the secret the site knows as one of PLATFORM_WEBHOOK_SECRETS. */
  secret: string;
  /** How a delivery reaches the site: `postTo(url)` over HTTP, or in process in tests. */
  post: PostDelivery;
  batchSize?: number;
  /** First wait after a failure; it doubles up to `maxWaitMs`. */
  firstWaitMs?: number;
  maxWaitMs?: number;
  /** Stops the waiting and the delivery (the server is closing). */
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  /** The clock the signatures are dated by. */
  now?: () => Date;
}

export interface DeliveryReport {
  batches: number;
  applied: number;
  ignored: number;
}

/** The site refused a batch for what it holds: sending it again would change nothing. */
export class DeliveryRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly answer: string,
  ) {
    super(`The site refused a delivery with ${status}: ${answer.slice(0, 500)}`);
    this.name = 'DeliveryRefusedError';
  }
}

const FINAL_REFUSALS = new Set([400, 413]);

const answerSchema = z.object({ applied: z.number(), ignored: z.number() });

/** Sends deliveries over HTTP to the site's events endpoint, each attempt within `timeoutMs`. */
export function postTo(url: string, timeoutMs = 30_000): PostDelivery {
  return async ({ body, headers }) => {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      status: response.status,
      body: await response.text(),
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    };
  };
}

/** A new id for a delivery, as Standard Webhooks writes them. */
export function newWebhookId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

function signed(webhook: Webhook, id: string, body: string, at: Date): SignedDelivery {
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': webhook.sign(id, at, body),
    },
  };
}

/** Delivers `events` in order, batch after batch, each until the site has applied it. */
export async function deliverEvents(
  events: readonly PlatformEvent[],
  options: DeliverOptions,
): Promise<DeliveryReport> {
  const batchSize = options.batchSize ?? MAX_EVENTS_PER_DELIVERY;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_EVENTS_PER_DELIVERY) {
    throw new RangeError(`A batch holds 1 to ${MAX_EVENTS_PER_DELIVERY} events, not ${batchSize}`);
  }
  const webhook = new Webhook(options.secret);
  const report: DeliveryReport = { batches: 0, applied: 0, ignored: 0 };
  for (let start = 0; start < events.length; start += batchSize) {
    const body = JSON.stringify({ events: events.slice(start, start + batchSize) });
    const answer = await deliverBatch(webhook, body, report.batches, options);
    report.batches += 1;
    report.applied += answer.applied;
    report.ignored += answer.ignored;
  }
  return report;
}

async function deliverBatch(
  webhook: Webhook,
  body: string,
  batch: number,
  options: DeliverOptions,
): Promise<{ applied: number; ignored: number }> {
  const id = newWebhookId();
  const now = options.now ?? (() => new Date());
  const firstWaitMs = options.firstWaitMs ?? 500;
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    let failure: Pick<RetryNotice, 'status' | 'error'>;
    let retryAfterMs = 0;
    try {
      const answer = await options.post(signed(webhook, id, body, now()));
      if (answer.status === 200) {
        const parsed = answerSchema.safeParse(safeJson(answer.body));
        return parsed.success ? parsed.data : { applied: 0, ignored: 0 };
      }
      if (FINAL_REFUSALS.has(answer.status)) {
        throw new DeliveryRefusedError(answer.status, answer.body);
      }
      failure = { status: answer.status };
      retryAfterMs = (answer.retryAfterSeconds ?? 0) * 1000;
    } catch (error) {
      if (error instanceof DeliveryRefusedError) throw error;
      options.signal?.throwIfAborted();
      failure = { error: error instanceof Error ? error.message : String(error) };
    }
    const backOff = Math.min(maxWaitMs, firstWaitMs * 2 ** (attempt - 1));
    const waitMs = Math.max(backOff, Math.min(retryAfterMs, maxWaitMs));
    options.onRetry?.({ batch, attempt, ...failure, waitMs });
    await sleepFor(waitMs, undefined, { signal: options.signal });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
