import {
  PLATFORM_EVENTS_PATH,
  platformDeliveryResultSchema,
} from '@guquan/contract/platform-events';
import {
  failureText,
  newWebhookId,
  postTo,
  sendSigned,
  type DeliveryAnswer,
} from '../http/signed-deliveries.ts';
import type { LineRefusal } from './event-batches.ts';
import type { BatchResult } from './event-file-run.ts';

/** A site's events endpoint, and the secret its deliveries are signed with (`whsec_…`). */
export interface DeliveryTarget {
  origin: string;
  secret: string;
  /** Attempts per delivery before giving up (back-off 1 s, 2 s, 4 s … up to 30 s between). */
  attempts?: number;
  /** Waits between attempts (tests pass a quick one). */
  wait?: (ms: number) => Promise<void>;
  /** Told of each failed attempt that will be retried. */
  onRetry?: (why: string, waitMs: number) => void;
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

/** Retried: no answer, and these; any other answer but 200 is the site's last word. */
const RETRIED = new Set([408, 425, 429, 500, 502, 503, 504]);

interface ErrorAnswer {
  error?: { code?: unknown; message?: unknown };
}

function refusalOf({ status, body }: DeliveryAnswer): DeliveryRefused {
  let answer: ErrorAnswer = {};
  try {
    answer = JSON.parse(body) as ErrorAnswer;
  } catch {
    // Not the error shape (a proxy's page): its first words say what it is.
  }
  const code = typeof answer.error?.code === 'string' ? answer.error.code : 'refused';
  const message =
    typeof answer.error?.message === 'string' ? answer.error.message : body.slice(0, 200);
  return new DeliveryRefused(status, code, message);
}

function resultOf(body: string): BatchResult {
  try {
    const answer = platformDeliveryResultSchema.safeParse(JSON.parse(body));
    if (answer.success) return answer.data;
  } catch {
    // Not JSON: refused below, as an answer that is not one.
  }
  throw new DeliveryRefused(200, 'bad_answer', 'the answer is not { applied, ignored }');
}

/**
 * Sends one delivery of `lines` (each one event's JSON, as the file has it) to the target's
 * events endpoint, signed with its secret, as the platform would. Retried with back-off on a
 * network error, a timeout, 408, 425, 429 or a 5xx, with the same `webhook-id` (a rerun of the
 * file makes new deliveries: the site answers them with what they change now, nothing, by the
 * versions); any other answer but 200 throws DeliveryRefused.
 */
export async function deliverLines(
  target: DeliveryTarget,
  lines: readonly string[],
): Promise<BatchResult> {
  const answer = await sendSigned({
    secret: target.secret,
    body: deliveryBody(lines),
    post: postTo(new URL(PLATFORM_EVENTS_PATH, target.origin), {
      timeoutMs: 60_000,
      redirect: 'follow',
    }),
    isFinal: (status) => !RETRIED.has(status),
    webhookId: newWebhookId('import'),
    attempts: target.attempts ?? 8,
    firstWaitMs: 1000,
    wait: target.wait,
    onRetry: (failed) => target.onRetry?.(failureText(failed), failed.waitMs),
  });
  if (answer.status !== 200) throw refusalOf(answer);
  return resultOf(answer.body);
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
