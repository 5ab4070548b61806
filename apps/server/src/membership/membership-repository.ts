import { randomUUID } from 'node:crypto';
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Membership, Plan } from '@guquan/contract/membership';
import type { Db } from '../db/database.ts';
import { lockUser } from '../db/locking.ts';
import type { Database } from '../db/schema.ts';
import { queuePlatformEvent } from '../outbox/platform-events-out.ts';

/**
 * The only code that touches the membership tables. Functions taking `trx` run inside the
 * caller's database transaction, so a grant is all or nothing.
 */
export type Trx = Transaction<Database>;

export interface TransactionRow {
  transactionId: string;
  originalTransactionId: string;
  userId: number;
  productId: string;
  purchaseDate: string;
  expiresDate: string;
  revokedAt: string | null;
  environment: string;
}

type PlanRow = Selectable<Database['membership_plans']>;

function planOf(row: PlanRow): Plan {
  return {
    productId: row.product_id,
    titles: { 'zh-CN': row.title_zh, en: row.title_en },
    period: row.period,
    fallbackPriceFen: row.price_fen,
    level: row.group_level,
  };
}

export async function listPlans(db: Db): Promise<Plan[]> {
  const rows = await db.selectFrom('membership_plans').selectAll().orderBy('position').execute();
  return rows.map(planOf);
}

/**
 * The user's App Store transaction in force at `at`: not revoked, expiring after it, the newest
 * (the simulated App Store's "current subscription", demo-storekit-routes.ts).
 */
export async function transactionInForce(db: Db, userId: number, at: Date) {
  return db
    .selectFrom('app_store_transactions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_date', '>', at.toISOString())
    .orderBy('expires_date', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function findPlan(db: Db | Trx, productId: string): Promise<Plan | undefined> {
  const row = await db
    .selectFrom('membership_plans')
    .selectAll()
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row && planOf(row);
}

/** The user's app account token: made on first use, the same ever after. */
export async function appAccountToken(db: Db, userId: number, now: Date): Promise<string> {
  await db
    .insertInto('app_account_tokens')
    .values({ user_id: userId, token: randomUUID(), created_at: now.toISOString() })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_account_tokens')
    .select('token')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.token;
}

export async function userIdForToken(db: Db | Trx, token: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('app_account_tokens')
    .select('user_id')
    .where('token', '=', token.toLowerCase())
    .executeTakeFirst();
  return row?.user_id;
}

/** The user who holds a subscription, from any transaction of it the server has. */
export async function userIdForOriginal(
  trx: Trx,
  originalTransactionId: string,
): Promise<number | undefined> {
  const row = await trx
    .selectFrom('app_store_transactions')
    .select('user_id')
    .where('original_transaction_id', '=', originalTransactionId)
    .orderBy('id')
    .executeTakeFirst();
  return row?.user_id;
}

/** True once the deletion job has anonymised the account. */
export async function isDeletedUser(trx: Trx, userId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('users')
    .select('deleted_at')
    .where('id', '=', userId)
    .executeTakeFirst();
  return typeof row?.deleted_at === 'string';
}

export async function findTransaction(
  trx: Trx,
  transactionId: string,
): Promise<TransactionRow | undefined> {
  const row = await trx
    .selectFrom('app_store_transactions')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  return (
    row && {
      transactionId: row.transaction_id,
      originalTransactionId: row.original_transaction_id,
      userId: row.user_id,
      productId: row.product_id,
      purchaseDate: row.purchase_date,
      expiresDate: row.expires_date,
      revokedAt: row.revoked_at,
      environment: row.environment,
    }
  );
}

/** Inserts a transaction unless one with its id is there; true when this call inserted it. */
export async function insertTransaction(
  trx: Trx,
  row: TransactionRow,
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('app_store_transactions')
    .values({
      transaction_id: row.transactionId,
      original_transaction_id: row.originalTransactionId,
      user_id: row.userId,
      product_id: row.productId,
      purchase_date: row.purchaseDate,
      expires_date: row.expiresDate,
      revoked_at: row.revokedAt,
      environment: row.environment,
      created_at: now.toISOString(),
    })
    .onConflict((conflict) => conflict.column('transaction_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function setRevoked(
  trx: Trx,
  transactionId: string,
  at: string | null,
): Promise<void> {
  await trx
    .updateTable('app_store_transactions')
    .set({ revoked_at: at })
    .where('transaction_id', '=', transactionId)
    .execute();
}

/**
 * Brings the user's membership row in line with their transactions: it lasts until the latest
 * expiry among those not revoked. `autoRenew` undefined keeps what is known. The user's row is
 * locked first, so two grants of one user on two servers recompute one after the other, each
 * reading the other's transaction once it is committed (on PostgreSQL each statement sees what
 * was committed before it began; without the lock the later upsert could keep an older expiry).
 */
export async function recompute(
  trx: Trx,
  userId: number,
  now: Date,
  autoRenew?: boolean | null,
): Promise<void> {
  await lockUser(trx, userId);
  const latest = await trx
    .selectFrom('app_store_transactions')
    .select(['product_id', 'original_transaction_id', 'expires_date'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('expires_date', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!latest) {
    await trx.deleteFrom('memberships').where('user_id', '=', userId).execute();
    return;
  }
  const renew = autoRenew === undefined ? undefined : autoRenew === null ? null : autoRenew ? 1 : 0;
  const values = {
    product_id: latest.product_id,
    original_transaction_id: latest.original_transaction_id,
    expires_at: latest.expires_date,
    updated_at: now.toISOString(),
  };
  await trx
    .insertInto('memberships')
    .values({ user_id: userId, ...values, auto_renew: renew ?? null, renewal_product_id: null })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet({
        ...values,
        ...(renew === undefined ? {} : { auto_renew: renew }),
        // What the old subscription was to renew to says nothing about a new one.
        renewal_product_id: sql<
          string | null
        >`case when memberships.original_transaction_id = ${latest.original_transaction_id} then memberships.renewal_product_id else null end`,
      }),
    )
    .execute();
}

export async function readMembership(db: Db | Trx, userId: number, now: Date): Promise<Membership> {
  const row = await db
    .selectFrom('memberships')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) {
    return {
      status: 'none',
      expiresAt: null,
      productId: null,
      autoRenew: null,
      renewalProductId: null,
    };
  }
  return {
    status: row.expires_at > now.toISOString() ? 'active' : 'expired',
    expiresAt: row.expires_at,
    productId: row.product_id,
    autoRenew: row.auto_renew === null ? null : row.auto_renew === 1,
    renewalProductId: row.renewal_product_id,
  };
}

/**
 * Whether another subscription of the group (another original transaction) covers any moment of
 * `period` for its user: one of its transactions that still counts (not refunded or revoked) has
 * a period overlapping this one. Granting `period` then would have two subscriptions cover one
 * moment, whichever of them arrived first (docs/decisions/0015-one-subscription-per-member.md).
 * Periods are half-open, [purchase, expiry): one that starts as the other ends does not overlap
 * it. The answer holds only while the user is locked (`lockUser`), until the transaction that
 * asked ends.
 */
export async function overlapsOtherSubscription(
  trx: Trx,
  period: Pick<TransactionRow, 'userId' | 'originalTransactionId' | 'purchaseDate' | 'expiresDate'>,
): Promise<boolean> {
  const row = await trx
    .selectFrom('app_store_transactions')
    .select('id')
    .where('user_id', '=', period.userId)
    .where('original_transaction_id', '!=', period.originalTransactionId)
    .where('revoked_at', 'is', null)
    .where('purchase_date', '<', period.expiresDate)
    .where('expires_date', '>', period.purchaseDate)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * What the App Store says the subscription renews to, from its signed renewal info: only for the
 * subscription the membership is (its original transaction), and only once the row exists.
 */
export async function setRenewal(
  trx: Trx,
  userId: number,
  renewal: { originalTransactionId: string; productId: string | null; autoRenew: boolean | null },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('memberships')
    .set({
      renewal_product_id: renewal.productId,
      ...(renewal.autoRenew === null ? {} : { auto_renew: renewal.autoRenew ? 1 : 0 }),
      updated_at: now.toISOString(),
    })
    .where('user_id', '=', userId)
    .where('original_transaction_id', '=', renewal.originalTransactionId)
    .execute();
}

/** Logs a notification as handled; false when it was already (the App Store sends again). */
export async function recordNotification(
  trx: Trx,
  notification: { uuid: string; type: string; subtype: string | null },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('app_store_notifications')
    .values({
      notification_uuid: notification.uuid,
      notification_type: notification.type,
      subtype: notification.subtype,
      received_at: now.toISOString(),
    })
    .onConflict((conflict) => conflict.column('notification_uuid').doNothing())
    .returning('notification_uuid')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** What the platform is told of a membership (its `membership.changed`). */
interface MembershipState {
  plan: string | null;
  expiresAt: string | null;
  autoRenew: boolean | null;
}

async function membershipState(trx: Trx, userId: number): Promise<MembershipState> {
  const row = await trx
    .selectFrom('memberships')
    .select(['product_id', 'expires_at', 'auto_renew'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    plan: row?.product_id ?? null,
    expiresAt: row?.expires_at ?? null,
    autoRenew:
      row?.auto_renew === undefined || row.auto_renew === null ? null : row.auto_renew === 1,
  };
}

/**
 * Runs `change` with the user locked, in the caller's transaction, and queues the platform's
 * `membership.changed` there when the membership is not what it was (a grant, renewal, plan
 * change, expiry, refund or revocation): the platform hears of it if and only if it commits, in
 * order, with a `version` that rises with each event of the user.
 */
export async function changingMembership<T>(
  trx: Trx,
  userId: number,
  now: Date,
  change: () => Promise<T>,
): Promise<T> {
  await lockUser(trx, userId);
  const before = await membershipState(trx, userId);
  const result = await change();
  const after = await membershipState(trx, userId);
  if (
    after.plan === before.plan &&
    after.expiresAt === before.expiresAt &&
    after.autoRenew === before.autoRenew
  ) {
    return result;
  }
  const user = await trx
    .updateTable('users')
    .set((eb) => ({ membership_version: eb('membership_version', '+', 1) }))
    .where('id', '=', userId)
    .returning(['public_id', 'membership_version'])
    .executeTakeFirstOrThrow();
  await queuePlatformEvent(
    trx,
    {
      type: 'membership.changed',
      data: { userId: user.public_id, ...after, version: user.membership_version },
    },
    now,
  );
  return result;
}
