import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, ReferenceExpression } from 'kysely';
import { isPostgres, type Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * The one lease of the rows work is done on by one server at a time: the outbox's deliveries,
 * the redemptions' debits, the platform's images and WeChat's credentials. A server takes a row
 * with one conditional UPDATE that matches only while the row is free (`leaseFree`: its lease
 * column empty or run out), writing when its lease runs out (`leaseEnd`) and, where the table has
 * one, a token that names the holder (`newLease`); it writes its outcome only while the row is
 * still its own, and gives the row back (`NO_LEASE`). A lease outlives the work it covers, so a
 * live holder never loses it; after a crash it runs out and any server takes the row again.
 */

/** A lease taken now: the token that names its holder, and when it runs out (ISO). */
interface Lease {
  token: string;
  until: string;
}

/** When a lease taken at `now` for `ms` runs out, as the lease columns hold it (ISO). */
export function leaseEnd(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString();
}

/** A new lease, taken at `now` for `ms`. */
export function newLease(now: Date, ms: number): Lease {
  return { token: randomUUID(), until: leaseEnd(now, ms) };
}

/** The lease columns of a row nobody holds. */
export const NO_LEASE = { lease_token: null, lease_until: null } as const;

/** Whether nobody holds the row at `at`: its lease column (`column`) empty or run out. */
export function leaseFree<TB extends keyof Database>(
  column: ReferenceExpression<Database, TB>,
  at: string,
) {
  return (eb: ExpressionBuilder<Database, TB>) =>
    eb.or([eb(column, 'is', null), eb(column, '<=', at as never)]);
}

/**
 * The row `id` of `table` unless another transaction holds it: on PostgreSQL, `FOR UPDATE SKIP
 * LOCKED`, so a lease's update skips a row a delivery holds instead of waiting for it (and
 * keeping a connection of the pool). SQLite has one writer, and a statement never waits for
 * another's transaction there (sqlite-read-write.ts). Used as `where('id', 'in', unheldRow(…))`.
 */
export function unheldRow(db: Db, table: 'images' | 'outbox' | 'redemptions', id: number) {
  const row = db.selectFrom(table).select('id').where('id', '=', id);
  return isPostgres(db) ? row.forUpdate().skipLocked() : row;
}
