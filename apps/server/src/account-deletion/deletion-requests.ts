import type { Kysely } from 'kysely';
import {
  DELETION_COOL_OFF_DAYS,
  type DeletionBlocker,
  type DeletionOverview,
  type DeletionRequest,
} from '@guquan/contract/account-deletion';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Database } from '../db/schema.ts';
import { queuePlatformEvent } from '../outbox/platform-events-out.ts';

/** The repository of deletion requests and what the deletion page shows. */
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PendingRequest extends DeletionRequest {
  id: number;
}

export async function findPendingRequest(
  db: Kysely<Database>,
  userId: number,
): Promise<PendingRequest | undefined> {
  const row = await db
    .selectFrom('account_deletion_requests')
    .select(['id', 'requested_at', 'deletes_at'])
    .where('user_id', '=', userId)
    .where('cancelled_at', 'is', null)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return row && { id: row.id, requestedAt: row.requested_at, deletesAt: row.deletes_at };
}

/**
 * The user's last request, when a log-in withdrew it less than a cool-off ago and no request
 * came after it: what the page tells the user happened.
 */
export async function findCancelledByLogin(
  db: Kysely<Database>,
  userId: number,
  now: Date,
): Promise<{ at: string } | null> {
  const last = await db
    .selectFrom('account_deletion_requests')
    .select(['cancel_reason', 'cancelled_at'])
    .where('user_id', '=', userId)
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (last?.cancel_reason !== 'login' || last.cancelled_at === null) return null;
  const since = new Date(now.getTime() - DELETION_COOL_OFF_DAYS * DAY_MS).toISOString();
  return last.cancelled_at > since ? { at: last.cancelled_at } : null;
}

/** Open cases that stop a deletion, oldest first. */
export async function findBlockers(
  db: Kysely<Database>,
  userId: number,
): Promise<DeletionBlocker[]> {
  const rows = await db
    .selectFrom('account_cases')
    .select(['kind', 'title', 'opened_at'])
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .orderBy('opened_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ kind: row.kind, title: row.title, since: row.opened_at }));
}

/** The user's bound phone, decrypted; null when none is bound. */
export async function findPhone(
  db: Kysely<Database>,
  phones: PhoneProtection,
  userId: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('phone_encrypted')
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.phone_encrypted ? phones.decrypt(row.phone_encrypted) : null;
}

async function count(
  db: Kysely<Database>,
  table: 'goods' | 'cabinets' | 'notes' | 'comments',
  userId: number,
): Promise<number> {
  const owner = table === 'goods' || table === 'cabinets' ? 'owner_id' : 'author_id';
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(owner, '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function content(
  db: Kysely<Database>,
  userId: number,
): Promise<DeletionOverview['content']> {
  return {
    goods: await count(db, 'goods', userId),
    cabinets: await count(db, 'cabinets', userId),
    notes: await count(db, 'notes', userId),
    comments: await count(db, 'comments', userId),
  };
}

function deletesAtFor(requestedAt: Date): string {
  return new Date(requestedAt.getTime() + DELETION_COOL_OFF_DAYS * DAY_MS).toISOString();
}

/** The user's id as the platform knows it (the events out name users by it). */
async function platformUserId(db: Kysely<Database>, userId: number): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('public_id')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.public_id;
}

/** `work` in the caller's transaction, or in one of its own. */
function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>) {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Creates the request, or finds the one a parallel request created first (the unique index on
 * pending requests decides). Runs inside the caller's transaction, which also queues the
 * platform's `account.deletion_requested`.
 */
export async function createRequest(
  trx: Kysely<Database>,
  userId: number,
  now: Date,
): Promise<PendingRequest> {
  const existing = await findPendingRequest(trx, userId);
  if (existing) return existing;
  const requestedAt = now.toISOString();
  const deletesAt = deletesAtFor(now);
  const row = await trx
    .insertInto('account_deletion_requests')
    .values({
      user_id: userId,
      requested_at: requestedAt,
      deletes_at: deletesAt,
      cancelled_at: null,
      cancel_reason: null,
      completed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await queuePlatformEvent(
    trx,
    {
      type: 'account.deletion_requested',
      data: {
        userId: await platformUserId(trx, userId),
        confirmedAt: requestedAt,
        deleteAfter: deletesAt,
      },
    },
    now,
  );
  return { id: row.id, requestedAt, deletesAt };
}

/**
 * Ends the user's pending request, if any: the user cancelled on the page, or logged in again
 * (privacy policy 11.5: logging in during the cool-off withdraws the request). The platform's
 * `account.deletion_withdrawn` is queued in the same transaction.
 */
export function cancelPendingRequest(
  db: Kysely<Database>,
  userId: number,
  reason: 'user' | 'login',
  now: Date,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('account_deletion_requests')
      .set({ cancelled_at: now.toISOString(), cancel_reason: reason })
      .where('user_id', '=', userId)
      .where('cancelled_at', 'is', null)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await queuePlatformEvent(
      trx,
      {
        type: 'account.deletion_withdrawn',
        data: {
          userId: await platformUserId(trx, userId),
          why: reason === 'login' ? 'logged_in' : 'user',
        },
      },
      now,
    );
    return true;
  });
}
