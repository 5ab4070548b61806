import type { Kysely } from 'kysely';
import { PLATFORM_EVENTS_OUT_PER_DELIVERY } from '@guquan/contract/platform-events-out';
import { newLease } from '../db/leases.ts';
import { lockKey } from '../db/locking.ts';
import type { Database } from '../db/schema.ts';
import { newWebhookId } from '../http/signed-deliveries.ts';
import { isDue, isPending } from './outbox-repository.ts';

/**
 * Which of the platform's events go out together (docs/decisions/0025-outbox.md), under a lease:
 *
 * - A delivery due again (its wait over, or its lease run out): the same rows, the same id.
 * - Otherwise a new one, of users with no delivery outstanding, in id order (so of each user the
 *   oldest events, in order). Users whose events have never failed share it (a batch, up to 100
 *   events); a user whose events have failed (a refused batch was split) gets one of their own, so
 *   whatever makes the platform refuse or hang on their events is theirs alone.
 *
 * Made under a lock (PostgreSQL's advisory lock; SQLite has one writer): two servers never split
 * one user's events between them, and a user has one delivery outstanding at a time.
 */
const LOCK = 'outbox:platform_events';
/** Longer than an attempt can take (the longest timeout, 30 s). */
const EVENT_LEASE_MS = 2 * 60_000;

interface ClaimedRow {
  id: number;
  payload: string;
  attempts: number;
  queued_at: string;
  /** The user (the SHA-256 of their id). */
  partition_key: string | null;
}

export interface ClaimedDelivery {
  webhookId: string;
  token: string;
  rows: ClaimedRow[];
}

/** How many users' events a delivery carries. */
export function usersIn(delivery: ClaimedDelivery): number {
  return new Set(delivery.rows.map((row) => row.partition_key)).size;
}

type Trx = Kysely<Database>;

/** The ids of the next new delivery (none when nothing is owed by a user free to receive). */
async function nextRows(trx: Trx): Promise<number[]> {
  // Every row not yet in a delivery is due (queued now, or split out of a refused batch now): no
  // clock is compared, so a server's clock ahead of another's never reorders a user's events.
  const candidates = await trx
    .selectFrom('outbox')
    .select(['id', 'partition_key', 'attempts'])
    .where(isPending('platform_events'))
    .where('webhook_id', 'is', null)
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
  const first = candidates[0];
  if (!first) return [];
  // A user's rows here are their oldest, and failed rows come before any queued later: a user
  // whose first row here has failed is a user whose events failed.
  if (first.attempts > 0) {
    const alone = await trx
      .selectFrom('outbox')
      .select('id')
      .where(isPending('platform_events'))
      .where('webhook_id', 'is', null)
      .where('partition_key', first.partition_key === null ? 'is' : '=', first.partition_key)
      .orderBy('id')
      .limit(PLATFORM_EVENTS_OUT_PER_DELIVERY)
      .execute();
    return alone.map((row) => row.id);
  }
  const failed = new Set(
    candidates.filter((row) => row.attempts > 0).map((row) => row.partition_key),
  );
  return candidates.filter((row) => !failed.has(row.partition_key)).map((row) => row.id);
}

/** A delivery due again (its wait over, nobody holding it), with the same rows; or a new one. */
export async function claimEventDelivery(
  db: Kysely<Database>,
  now: Date,
): Promise<ClaimedDelivery | undefined> {
  const at = now.toISOString();
  const { token, until: leaseUntil } = newLease(now, EVENT_LEASE_MS);
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, LOCK);
    const rowsOf = async (webhookId: string) => {
      const rows = await trx
        .selectFrom('outbox')
        .select(['id', 'payload', 'attempts', 'queued_at', 'partition_key'])
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

    const ids = await nextRows(trx);
    if (ids.length === 0) return undefined;
    const webhookId = newWebhookId('events');
    await trx
      .updateTable('outbox')
      .set({ webhook_id: webhookId, lease_token: token, lease_until: leaseUntil })
      .where('id', 'in', ids)
      .where('webhook_id', 'is', null)
      .execute();
    return { webhookId, token, rows: await rowsOf(webhookId) };
  });
}
