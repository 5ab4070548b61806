import {
  PLATFORM_EVENTS_PER_DELIVERY,
  platformDeliveryResultSchema,
  type PlatformDeliveryResult,
  type PlatformEvent,
} from '@guquan/contract/platform-events';
import {
  sendSigned,
  type FailedAttempt,
  type PostDelivery as PostAny,
  type SignedDelivery as SignedAny,
} from '../http/signed-deliveries.ts';

/**
 * The stand-in platform's delivery client: events sent to the site's `POST …/platform/events` as
 * the platform sends them (PRODUCT.md, "Events in"), in batches of at most 500, each signed with
 * Standard Webhooks (http/signed-deliveries.ts: the same `webhook-id` across retries, signed
 * afresh at each attempt). Failures are retried with back-off until the site answers 200. Only an
 * answer that no retry can change stops it: 400 (the site names what is wrong with the events)
 * and 413 (too large).
 */

/** What the transport is asked to send: the body exactly as signed, and its headers. */
export type SignedDelivery = SignedAny<string>;

/** The site's answer, or a thrown error when none came (refused connection, timeout). */
export type PostDelivery = PostAny<string>;

export interface RetryNotice extends FailedAttempt {
  /** 0-based index of the batch. */
  batch: number;
}

export interface DeliverOptions {
  /** `whsec_<base64>`: the secret the site knows as one of PLATFORM_WEBHOOK_SECRETS. */
  secret: string;
  /** How a delivery reaches the site: `postTo(url)` (http/signed-deliveries.ts) over HTTP, or in process in tests. */
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

/** Delivers `events` in order, batch after batch, each until the site has applied it. */
export async function deliverEvents(
  events: readonly PlatformEvent[],
  options: DeliverOptions,
): Promise<DeliveryReport> {
  const batchSize = options.batchSize ?? PLATFORM_EVENTS_PER_DELIVERY;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > PLATFORM_EVENTS_PER_DELIVERY) {
    throw new RangeError(
      `A batch holds 1 to ${PLATFORM_EVENTS_PER_DELIVERY} events, not ${batchSize}`,
    );
  }
  const report: DeliveryReport = { batches: 0, applied: 0, ignored: 0 };
  for (let start = 0; start < events.length; start += batchSize) {
    const body = JSON.stringify({ events: events.slice(start, start + batchSize) });
    const answer = await deliverBatch(body, report.batches, options);
    report.batches += 1;
    report.applied += answer.applied;
    report.ignored += answer.ignored;
  }
  return report;
}

async function deliverBatch(
  body: string,
  batch: number,
  options: DeliverOptions,
): Promise<PlatformDeliveryResult> {
  const answer = await sendSigned({
    secret: options.secret,
    body,
    post: options.post,
    isFinal: (status) => FINAL_REFUSALS.has(status),
    firstWaitMs: options.firstWaitMs,
    maxWaitMs: options.maxWaitMs,
    signal: options.signal,
    onRetry: (failed) => options.onRetry?.({ batch, ...failed }),
    now: options.now,
  });
  if (answer.status !== 200) throw new DeliveryRefusedError(answer.status, answer.body);
  const parsed = platformDeliveryResultSchema.safeParse(safeJson(answer.body));
  return parsed.success ? parsed.data : { applied: 0, ignored: 0 };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
