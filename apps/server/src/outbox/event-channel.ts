import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Log } from '../http/logging.ts';
import {
  failureText,
  signedHeaders,
  type DeliveryAnswer,
  type PostDelivery,
} from '../http/signed-deliveries.ts';
import { claimEventDelivery, usersIn, type ClaimedDelivery } from './event-claims.ts';
import { errorText } from './outbox-repository.ts';
import {
  emptyReport,
  recordFailed,
  recordStopped,
  recordTaken,
  type EventDeliveryReport,
} from './event-outcomes.ts';

export { eventRetryWaitMs, GIVE_UP_AFTER_MS, type EventDeliveryReport } from './event-outcomes.ts';

/**
 * The outbox's events for the platform (PRODUCT.md, "Events out"), delivered to
 * PLATFORM_EVENTS_URL signed with PLATFORM_EVENTS_SECRET as `{ "events": [ … ] }`, one user's
 * trouble kept that user's (issue 37):
 *
 * - What goes out together, and in what order: event-claims.ts. A user's events in order, one
 *   delivery at a time per user, across all servers.
 * - Up to 4 deliveries in flight per server, each with its own wait for an answer: 5 s for a
 *   delivery of several users, 30 s for one user's. One that hangs holds one slot, never the rest.
 * - What an answer, or none, leaves: event-outcomes.ts (a failed delivery of several users is
 *   split at once; one user's is retried under the same `webhook-id`).
 */
export const EVENT_TIMEOUT_MS = 30_000;
/** A delivery of several users: a platform that answers in time answers 100 events in less. */
const SEVERAL_USERS_TIMEOUT_MS = 5_000;
/** Deliveries one server has in flight at once. */
const EVENT_DELIVERIES_AT_ONCE = 4;
/** How often a server looks for events due, besides being woken by one queued or answered. */
export const EVENT_CHANNEL_INTERVAL_MS = 5_000;
/** Deliveries one call of deliverPlatformEvents makes at most (a backlog drains over a few). */
const DELIVERIES_PER_CALL = 200;

interface EventTimeouts {
  severalUsersMs: number;
  oneUserMs: number;
}

export interface EventDeliveryOptions {
  post: PostDelivery;
  /**
   * PLATFORM_EVENTS_SECRET now: read at each attempt, so a retry is signed with the secret current
   * at the time (a rotation, config/secret-rotation.ts).
   */
  secret: () => string;
  now?: () => Date;
  log?: Log;
  /** Told of each failed attempt (the failed attempts' counter). */
  onFailedAttempt?: () => void;
  /** How long an attempt waits for its answer (tests shorten them). */
  timeouts?: EventTimeouts;
  concurrency?: number;
}

/** The exact bytes of a delivery: the events' JSON as queued, in order. */
function bodyOf(rows: ClaimedDelivery['rows']): string {
  return `{"events":[${rows.map((row) => row.payload).join(',')}]}`;
}

/** `work`, or the signal's reason once it is aborted (a transport that ignores it included). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason as Error);
    };
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', onAbort);
    });
  });
}

/** One attempt, signed as it leaves by the wall clock (the receiver refuses a stale signature). */
async function attempt(
  { post, secret }: Pick<EventDeliveryOptions, 'post' | 'secret'>,
  delivery: ClaimedDelivery,
  signal: AbortSignal,
): Promise<{ taken: true } | { taken: false; failure: string }> {
  const body = bodyOf(delivery.rows);
  let answer: DeliveryAnswer;
  try {
    const headers = signedHeaders(secret(), delivery.webhookId, body, new Date());
    answer = await untilAborted(post({ body, headers, signal }), signal);
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { taken: false, failure: timedOut ? 'no answer in time' : errorText(error) };
  }
  if (answer.status >= 200 && answer.status < 300) return { taken: true };
  return { taken: false, failure: failureText({ status: answer.status }) };
}

/** Deliveries in flight on one server, up to its concurrency. */
interface EventSender {
  /** Claims what is due into the free slots and sends it; resolves once claimed (not answered). */
  fill(): Promise<number>;
  /** Resolves when one delivery in flight has been answered and recorded (at once when none). */
  oneSettled(): Promise<void>;
  inFlight(): number;
  /** The first delivery that could not be recorded (the database went away), if any. */
  unrecorded(): unknown;
  /** Takes no more, aborts what is in flight (given back for any server) and waits for it. */
  stop(): Promise<void>;
  readonly report: EventDeliveryReport;
}

export function createEventSender(
  db: Kysely<Database>,
  options: EventDeliveryOptions & { onSettled?: () => void },
): EventSender {
  const { now = () => new Date(), log, onFailedAttempt, onSettled } = options;
  const timeouts = options.timeouts ?? {
    severalUsersMs: SEVERAL_USERS_TIMEOUT_MS,
    oneUserMs: EVENT_TIMEOUT_MS,
  };
  const concurrency = options.concurrency ?? EVENT_DELIVERIES_AT_ONCE;
  const report = emptyReport();
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  let unrecorded: unknown;

  async function send(delivery: ClaimedDelivery): Promise<void> {
    const waitMs = usersIn(delivery) > 1 ? timeouts.severalUsersMs : timeouts.oneUserMs;
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(waitMs)]);
    const outcome = await attempt(options, delivery, signal);
    if (outcome.taken) {
      await recordTaken(db, delivery, now(), report);
    } else if (stopping.signal.aborted) {
      await recordStopped(db, delivery);
    } else {
      onFailedAttempt?.();
      await recordFailed(db, delivery, { at: now(), failure: outcome.failure, log }, report);
    }
  }

  function track(delivery: ClaimedDelivery): void {
    const work = send(delivery)
      .catch((error: unknown) => {
        // Not recorded (the database went away): the lease runs out and it is sent again.
        unrecorded ??= error;
        log?.warn(
          { err: error, webhookId: delivery.webhookId },
          'an events delivery went unrecorded; it is sent again once its lease runs out',
        );
      })
      .finally(() => {
        running.delete(work);
        onSettled?.();
      });
    running.add(work);
  }

  async function claimIntoFreeSlots(): Promise<number> {
    let claimed = 0;
    while (!stopping.signal.aborted && running.size < concurrency) {
      const delivery = await claimEventDelivery(db, now());
      if (!delivery) break;
      claimed += 1;
      // Claimed as the server stops: tracked all the same, so it is given back at once.
      if (delivery.rows.length > 0) track(delivery);
    }
    return claimed;
  }
  let filling: Promise<number> | undefined;

  return {
    report,
    inFlight: () => running.size,
    unrecorded: () => unrecorded,
    fill() {
      const current = claimIntoFreeSlots().finally(() => {
        if (filling === current) filling = undefined;
      });
      filling = current;
      return current;
    },
    async oneSettled() {
      if (running.size > 0) await Promise.race(running);
    },
    async stop() {
      stopping.abort();
      await filling?.catch(() => 0);
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/**
 * Sends what is due and waits for the answers, a delivery split meanwhile sent apart in the same
 * call; safe to run on several servers at once.
 */
export async function deliverPlatformEvents(
  db: Kysely<Database>,
  options: EventDeliveryOptions,
): Promise<EventDeliveryReport> {
  const sender = createEventSender(db, options);
  let claims = 0;
  while (claims < DELIVERIES_PER_CALL) {
    const claimed = await sender.fill();
    claims += claimed;
    if (claimed === 0 && sender.inFlight() === 0) break;
    await sender.oneSettled();
  }
  while (sender.inFlight() > 0) await sender.oneSettled();
  // As a run that met a lost database ends: with its error, once the rest is answered.
  if (sender.unrecorded() !== undefined) throw sender.unrecorded();
  return sender.report;
}
