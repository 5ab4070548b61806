import type { Kysely } from 'kysely';
import { NO_LEASE } from '../db/leases.ts';
import type { Database } from '../db/schema.ts';
import type { Log } from '../http/logging.ts';
import { backOff } from '../timing/back-off.ts';
import { usersIn, type ClaimedDelivery } from './event-claims.ts';
import { isPending } from './outbox-repository.ts';

/**
 * What an attempt at a delivery of the platform's events leaves in the outbox (the row is
 * changed only while the delivery is still this attempt's: same id, same lease):
 *
 * - taken: delivered, the events' JSON (which names the user) wiped;
 * - refused, or no answer, with several users' events: split. Each row leaves the delivery, due
 *   at once; the next deliveries give each of those users one of their own (event-claims.ts), so
 *   the one whose events the platform cannot take holds back nobody else;
 * - refused, or no answer, with one user's events: the same delivery again after a back-off that
 *   doubles from 10 s to an hour, or given up (and wiped) 3 days after its oldest event;
 * - stopped (the server is closing): given back as it was, for any server to send again now.
 */
const FIRST_WAIT_MS = 10_000;
const MAX_WAIT_MS = 3_600_000;
export const GIVE_UP_AFTER_MS = 3 * 24 * 3_600_000;

/** The wait after the `attempts`-th failed attempt. */
export function eventRetryWaitMs(attempts: number): number {
  return backOff({ attempt: attempts, firstMs: FIRST_WAIT_MS, maxMs: MAX_WAIT_MS });
}

export interface EventDeliveryReport {
  /** Deliveries the platform accepted, and the events in them. */
  delivered: number;
  events: number;
  /** Deliveries of several users that failed: their events go again, each user's apart. */
  split: number;
  /** Deliveries of one user that failed this time, to be tried again later. */
  retrying: number;
  /** Failed for the last time: given up, logged. */
  failed: number;
}

export const emptyReport = (): EventDeliveryReport => ({
  delivered: 0,
  events: 0,
  split: 0,
  retrying: 0,
  failed: 0,
});

function ours(db: Kysely<Database>, { webhookId, token }: ClaimedDelivery) {
  return db
    .updateTable('outbox')
    .where('webhook_id', '=', webhookId)
    .where('lease_token', '=', token)
    .where(isPending('platform_events'));
}

export async function recordTaken(
  db: Kysely<Database>,
  delivery: ClaimedDelivery,
  at: Date,
  report: EventDeliveryReport,
): Promise<void> {
  await ours(db, delivery)
    .set({ delivered_at: at.toISOString(), payload: null, ...NO_LEASE })
    .execute();
  report.delivered += 1;
  report.events += delivery.rows.length;
}

export async function recordFailed(
  db: Kysely<Database>,
  delivery: ClaimedDelivery,
  { at, failure, log }: { at: Date; failure: string; log?: Log },
  report: EventDeliveryReport,
): Promise<void> {
  const { webhookId, rows } = delivery;
  const attempts = Math.max(...rows.map((row) => row.attempts)) + 1;
  const released = { attempts, last_error: failure, ...NO_LEASE };
  const where = { webhookId, events: rows.length, attempts, error: failure };
  const users = usersIn(delivery);
  if (users > 1) {
    await ours(db, delivery)
      .set({ ...released, webhook_id: null, next_attempt_at: at.toISOString() })
      .execute();
    report.split += 1;
    log?.warn(
      { ...where, users },
      "events owed to the platform could not be delivered together; each user's go again apart",
    );
    return;
  }
  const oldest = Math.min(...rows.map((row) => Date.parse(row.queued_at)));
  if (at.getTime() - oldest >= GIVE_UP_AFTER_MS) {
    await ours(db, delivery)
      .set({ ...released, failed_at: at.toISOString(), payload: null })
      .execute();
    report.failed += 1;
    log?.warn(
      where,
      'events owed to the platform could not be delivered in 3 days and are given up',
    );
    return;
  }
  const next = new Date(at.getTime() + eventRetryWaitMs(attempts)).toISOString();
  await ours(db, delivery)
    .set({ ...released, next_attempt_at: next })
    .execute();
  report.retrying += 1;
  log?.warn(where, 'events owed to the platform could not be delivered; they will be retried');
}

/** Given back untouched (no attempt counted): due again at once, under the same id. */
export async function recordStopped(
  db: Kysely<Database>,
  delivery: ClaimedDelivery,
): Promise<void> {
  await ours(db, delivery).set(NO_LEASE).execute();
}
