import type { Kysely } from 'kysely';
import { PLATFORM_EVENTS_OUT_PER_DELIVERY } from '@guquan/contract/platform-events-out';
import { lockKey } from '../db/locking.ts';
import type { Database } from '../db/schema.ts';
import type { Log } from '../http/logging.ts';
import {
  DeliveryGaveUp,
  newWebhookId,
  sendSigned,
  type PostDelivery,
} from '../platform/signed-deliveries.ts';
import { errorText, isDue, isPending, newLeaseToken } from './outbox-repository.ts';

/**
 * The outbox's events for the platform (PRODUCT.md, "Events out"), delivered to
 * PLATFORM_EVENTS_URL signed with PLATFORM_EVENTS_SECRET as `{ "events": [ … ] }`:
 *
 * - A delivery is up to 100 events, each the oldest still owed of its user (its partition):
 *   a user with a delivery outstanding (in flight, or waiting to be retried) gets no other, so a
 *   user's events arrive in order and one delivery at a time, across all servers. New deliveries
 *   are made under a lock (PostgreSQL's advisory lock; SQLite has one writer), so two servers
 *   never split one user's events between them.
 * - One attempt per run. A failed delivery is retried by a later run with the same rows and the
 *   same `webhook-id` (the platform applies an id once), after a back-off that doubles from 10 s
 *   to an hour, and given up 3 days after its oldest event was queued.
 * - Delivered or given up, the events' JSON (which names the user) is wiped.
 */
const FIRST_WAIT_MS = 10_000;
const MAX_WAIT_MS = 3_600_000;
export const GIVE_UP_AFTER_MS = 3 * 24 * 3_600_000;
/** Longer than an attempt can take (EVENT_TIMEOUT_MS). */
const LEASE_MS = 2 * 60_000;
export const EVENT_TIMEOUT_MS = 30_000;
/** How often a server looks for events due, besides being woken by one queued. */
export const EVENT_CHANNEL_INTERVAL_MS = 5_000;
/** Deliveries one run makes at most (a backlog drains over a few runs). */
const DELIVERIES_PER_RUN = 20;
const LOCK = 'outbox:platform_events';

/** The wait after the `attempts`-th failed attempt. */
export function eventRetryWaitMs(attempts: number): number {
  return Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, attempts - 1));
}

interface ClaimedDelivery {
  webhookId: string;
  token: string;
  rows: { id: number; payload: string; attempts: number; queued_at: string }[];
}

/** A delivery due again (its wait over, nobody holding it), with the same rows; or a new one. */
async function claimDelivery(
  db: Kysely<Database>,
  now: Date,
): Promise<ClaimedDelivery | undefined> {
  const at = now.toISOString();
  const token = newLeaseToken();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, LOCK);
    const rowsOf = async (webhookId: string) => {
      const rows = await trx
        .selectFrom('outbox')
        .select(['id', 'payload', 'attempts', 'queued_at'])
        .where('webhook_id', '=', webhookId)
        .where('lease_token', '=', token)
        .where(isPending('platform_events'))
        .orderBy('id')
        .execute();
      return rows.flatMap((row) =>
        row.payload === null ? [] : [{ ...row, payload: row.payload }],
      );
    };

    const again = await trx
      .selectFrom('outbox')
      .select('webhook_id')
      .where(isPending('platform_events'))
      .where('webhook_id', 'is not', null)
      .where(isDue(at))
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (again?.webhook_id) {
      const webhookId = again.webhook_id;
      await trx
        .updateTable('outbox')
        .set({ lease_token: token, lease_until: leaseUntil })
        .where('webhook_id', '=', webhookId)
        .where(isPending('platform_events'))
        .execute();
      return { webhookId, token, rows: await rowsOf(webhookId) };
    }

    // The oldest events of users with no delivery outstanding: taken in id order, so of each user
    // the oldest ones, in order.
    const fresh = await trx
      .selectFrom('outbox')
      .select('id')
      .where(isPending('platform_events'))
      .where('webhook_id', 'is', null)
      .where('next_attempt_at', '<=', at)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('outbox as earlier')
              .select('earlier.id')
              .whereRef('earlier.partition_key', '=', 'outbox.partition_key')
              .where('earlier.channel', '=', 'platform_events')
              .where('earlier.delivered_at', 'is', null)
              .where('earlier.failed_at', 'is', null)
              .where('earlier.webhook_id', 'is not', null),
          ),
        ),
      )
      .orderBy('id')
      .limit(PLATFORM_EVENTS_OUT_PER_DELIVERY)
      .execute();
    if (fresh.length === 0) return undefined;
    const webhookId = newWebhookId('events');
    await trx
      .updateTable('outbox')
      .set({ webhook_id: webhookId, lease_token: token, lease_until: leaseUntil })
      .where(
        'id',
        'in',
        fresh.map((row) => row.id),
      )
      .where('webhook_id', 'is', null)
      .execute();
    return { webhookId, token, rows: await rowsOf(webhookId) };
  });
}

export interface EventDeliveryOptions {
  post: PostDelivery;
  /** PLATFORM_EVENTS_SECRET. */
  secret: string;
  now?: () => Date;
  log?: Log;
  /** Told of each failed attempt (the failed attempts' counter). */
  onFailedAttempt?: () => void;
}

export interface EventDeliveryReport {
  /** Deliveries the platform accepted, and the events in them. */
  delivered: number;
  events: number;
  /** Failed this time, to be tried again later. */
  retrying: number;
  /** Failed for the last time: given up, logged. */
  failed: number;
}

/** The exact bytes of a delivery: the events' JSON as queued, in order. */
function bodyOf(rows: ClaimedDelivery['rows']): string {
  return `{"events":[${rows.map((row) => row.payload).join(',')}]}`;
}

/** Sends what is due, one attempt per delivery; safe to run on several servers at once. */
export async function deliverPlatformEvents(
  db: Kysely<Database>,
  { post, secret, now = () => new Date(), log, onFailedAttempt }: EventDeliveryOptions,
): Promise<EventDeliveryReport> {
  const report: EventDeliveryReport = { delivered: 0, events: 0, retrying: 0, failed: 0 };
  for (let run = 0; run < DELIVERIES_PER_RUN; run++) {
    const claimed = await claimDelivery(db, now());
    if (!claimed) break;
    const { webhookId, token, rows } = claimed;
    if (rows.length === 0) continue;
    const ours = () =>
      db
        .updateTable('outbox')
        .where('webhook_id', '=', webhookId)
        .where('lease_token', '=', token)
        .where(isPending('platform_events'));
    try {
      await sendSigned({
        secret,
        body: bodyOf(rows),
        post,
        webhookId,
        attempts: 1,
        isFinal: (status) => status >= 200 && status < 300,
        // Signed as it leaves, by the wall clock: the receiver refuses a stale signature.
      });
      await ours()
        .set({
          delivered_at: now().toISOString(),
          payload: null,
          lease_token: null,
          lease_until: null,
        })
        .execute();
      report.delivered += 1;
      report.events += rows.length;
    } catch (error) {
      onFailedAttempt?.();
      const at = now();
      const attempts = Math.max(...rows.map((row) => row.attempts)) + 1;
      const oldest = Math.min(...rows.map((row) => Date.parse(row.queued_at)));
      const released = {
        attempts,
        // This attempt's failure (`503 Service Unavailable`): the outbox, not sendSigned, retries.
        last_error: errorText(error instanceof DeliveryGaveUp ? error.lastFailure : error),
        lease_token: null,
        lease_until: null,
      };
      if (at.getTime() - oldest >= GIVE_UP_AFTER_MS) {
        await ours()
          .set({ ...released, failed_at: at.toISOString(), payload: null })
          .execute();
        report.failed += 1;
        log?.warn(
          { webhookId, events: rows.length, attempts, error },
          'events owed to the platform could not be delivered in 3 days and are given up',
        );
      } else {
        const next = new Date(at.getTime() + eventRetryWaitMs(attempts)).toISOString();
        await ours()
          .set({ ...released, next_attempt_at: next })
          .execute();
        report.retrying += 1;
        log?.warn(
          { webhookId, events: rows.length, attempts, error },
          'events owed to the platform could not be delivered; they will be retried',
        );
      }
    }
  }
  return report;
}
