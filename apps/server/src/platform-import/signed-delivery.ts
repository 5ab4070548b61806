import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import {
  PLATFORM_EVENTS_PATH,
  platformDeliveryResultSchema,
} from '@guquan/contract/platform-events';
import type { LineRefusal } from './event-batches.ts';
import type { BatchResult } from './event-file-run.ts';

/** A site's events endpoint, and the secret its deliveries are signed with (`whsec_…`). */
export interface DeliveryTarget {
  origin: string;
  secret: string;
  fetch?: typeof fetch;
  /** Attempts per delivery before giving up (back-off 1 s, 2 s, 4 s … up to 30 s between). */
  attempts?: number;
  /** Waits between attempts (tests pass a quick one). */
  wait?: (ms: number) => Promise<void>;
  /** Told of each failed attempt that will be retried. */
  onRetry?: (why: string, waitMs: number) => void;
  timeoutMs?: number;
}

/** The site answered a delivery with a refusal a retry cannot change (400, 401, 413 …). */
export class DeliveryRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${status} ${code}: ${detail}`);
    this.name = 'DeliveryRefused';
  }
}

/** The body of a delivery made of the lines as they are: the signature is over these bytes. */
export function deliveryBody(lines: readonly string[]): Buffer {
  return Buffer.from(`{"events":[${lines.join(',')}]}`, 'utf8');
}

/**
 * A new delivery's `webhook-id`, kept by each of its attempts so the site applies it once
 * (PRODUCT.md: a repeated `webhook-id` answers 200 and changes nothing). A rerun of the file makes
 * new deliveries: the site answers them with what they change now (nothing, by the versions).
 */
export function newDeliveryId(): string {
  return `msg_import_${randomBytes(18).toString('base64url')}`;
}

/** The Standard Webhooks headers of `body`, signed now (each attempt is signed afresh). */
export function signedHeaders(
  secret: string,
  id: string,
  body: Buffer,
  at: Date,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

const RETRIED = new Set([408, 425, 429, 500, 502, 503, 504]);

interface ErrorAnswer {
  error?: { code?: unknown; message?: unknown };
}

async function refusalOf(response: Response): Promise<DeliveryRefused> {
  const text = await response.text();
  let answer: ErrorAnswer = {};
  try {
    answer = JSON.parse(text) as ErrorAnswer;
  } catch {
    // Not the error shape (a proxy's page): its first words say what it is.
  }
  const code = typeof answer.error?.code === 'string' ? answer.error.code : 'refused';
  const message =
    typeof answer.error?.message === 'string' ? answer.error.message : text.slice(0, 200);
  return new DeliveryRefused(response.status, code, message);
}

function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/**
 * Sends one delivery of `lines` (each one event's JSON, as the file has it) to the target's
 * events endpoint, signed with its secret, as the platform would. Retried with back-off on a
 * network error, a timeout, 408, 429 or a 5xx, with the same `webhook-id`; any other answer but
 * 200 throws DeliveryRefused.
 */
export async function deliverLines(
  target: DeliveryTarget,
  lines: readonly string[],
): Promise<BatchResult> {
  const send = target.fetch ?? fetch;
  const wait = target.wait ?? ((ms: number) => sleep(ms));
  const attempts = target.attempts ?? 8;
  const url = new URL(PLATFORM_EVENTS_PATH, target.origin);
  const body = deliveryBody(lines);
  const id = newDeliveryId();
  for (let attempt = 1; ; attempt += 1) {
    let why: string;
    let waitMs = Math.min(30_000, 1000 * 2 ** (attempt - 1));
    try {
      const response = await send(url, {
        method: 'POST',
        headers: signedHeaders(target.secret, id, body, new Date()),
        body: new Uint8Array(body),
        signal: AbortSignal.timeout(target.timeoutMs ?? 60_000),
      });
      if (response.status === 200) {
        const answer = platformDeliveryResultSchema.safeParse(await response.json());
        if (answer.success) return answer.data;
        throw new DeliveryRefused(200, 'bad_answer', 'the answer is not { applied, ignored }');
      }
      if (!RETRIED.has(response.status)) throw await refusalOf(response);
      why = `${response.status} ${response.statusText}`.trim();
      waitMs = retryAfterMs(response) ?? waitMs;
      await response.body?.cancel();
    } catch (error) {
      if (error instanceof DeliveryRefused) throw error;
      why = error instanceof Error ? error.message : String(error);
    }
    if (attempt >= attempts) throw new Error(`gave up after ${attempts} attempts: ${why}`);
    target.onRetry?.(why, waitMs);
    await wait(waitMs);
  }
}

/**
 * A refusal the site gave for a delivery, named by the line: the site names `events[3]…`, the
 * fourth event of the delivery, which is a line of the file.
 */
export function lineRefusalOf(
  refused: DeliveryRefused,
  events: readonly { line: number }[],
): LineRefusal | null {
  const match = /^events\[(\d+)\]\.?([^\s:]*)/.exec(refused.detail);
  const event = match ? events[Number(match[1])] : undefined;
  if (!match || !event) return null;
  const path = match[2] ?? '';
  const message = refused.detail.slice(match[0].length).replace(/^[:\s]+/, '');
  return { line: event.line, path: path === '' ? '(line)' : path, message };
}

/** A delivery the site refused, with the line it named if it named one. */
export class RemoteRefusal extends Error {
  constructor(
    readonly refused: DeliveryRefused,
    readonly line: LineRefusal | null,
  ) {
    super(refused.message);
    this.name = 'RemoteRefusal';
  }
}
