import { sql, type Kysely } from 'kysely';
import { isPostgres } from './database.ts';
import type { Database } from './schema.ts';

/**
 * What makes a read-then-write safe with several servers on one PostgreSQL
 * (docs/decisions/0009-postgresql-concurrency.md). On SQLite they do nothing, and need not: a
 * server runs one transaction at a time, on its one writing connection (sqlite-read-write.ts),
 * and SQLite has one writer.
 */

/**
 * Waits until no other transaction holds `key`, and holds it until this transaction ends
 * (PostgreSQL's transaction-level advisory lock on a 64-bit hash of the key). For limits counted
 * over rows that may not exist yet, where there is no row to lock: codes sent per phone.
 */
export async function lockKey(trx: Kysely<Database>, key: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${`guquan:${key}`}, 0))`.execute(trx);
}

/**
 * The lock every writer of the platform's copy takes (the deliveries, the import, and the account
 * deletion job, whose tombstones a delivery must see): one at a time per database
 * (docs/decisions/0021-platform-events-in.md).
 */
export const PLATFORM_COPY_LOCK = 'platform-copy';

/** `SELECT … FOR UPDATE` on PostgreSQL (the rows stay locked until the transaction ends). */
export function forUpdate<Query extends { forUpdate: () => Query }>(
  db: Kysely<Database>,
  query: Query,
): Query {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * Locks the user's row until the transaction ends: one change at a time to what is derived per
 * user (the membership row, the codes sent), whichever server the requests reach. `FOR NO KEY
 * UPDATE`, not `FOR UPDATE`: rows that reference the user (a new transaction, a code) take a key
 * share lock on it for their foreign key, which `FOR UPDATE` would wait on, deadlocking two such
 * transactions of one user; this lock waits only for its own kind.
 */
export async function lockUser(trx: Kysely<Database>, userId: number): Promise<void> {
  const query = trx.selectFrom('users').select('id').where('id', '=', userId);
  await (isPostgres(trx) ? query.forNoKeyUpdate() : query).execute();
}
