import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../database.ts';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';

/**
 * Redemptions spend through the platform (PRODUCT.md, "The app's platform", Points;
 * docs/decisions/0026-points-debits.md). A redemption becomes a state machine kept here: created
 * `pending` (with a lease: one server at a time asks the platform), then `redeemed` with the
 * balance and the debit id the platform answered, or `refused` (too few points, nothing spent).
 * A pending one is asked again with back-off (`attempts`, `next_attempt_at`, `last_error`).
 *
 * The site's own ledger goes (the balance is the platform's: `users.points`), and with it
 * `redemptions.ledger_entry_id`; every existing redemption becomes `redeemed` with the balance its
 * ledger entry had. One redemption per user and design still, but a refused one does not count
 * (a partial unique index, which both engines have): the user may try again later. The key the
 * site sends the platform is the redemption's public id, so one redemption never has two.
 *
 * The table is made again (SQLite cannot drop a unique, referencing column nor a table
 * constraint), its ids kept; on PostgreSQL the identity then goes on from the largest id.
 */
const STATE_CHECKS = {
  redemptions_state: "state in ('pending', 'redeemed', 'refused')",
  // Redeemed: the platform's answer is kept. Pending: it is due at some time.
  redemptions_redeemed:
    "state <> 'redeemed' or (balance_after is not null and completed_at is not null)",
  redemptions_pending: "state <> 'pending' or next_attempt_at is not null",
  redemptions_balance: 'balance_after is null or balance_after >= 0',
} as const;

async function createRedemptions(db: Kysely<unknown>, table: string): Promise<void> {
  const timestamp = isoTimestamp(db);
  let builder = db.schema
    .createTable(table)
    .addColumn('id', 'integer', serialId(db))
    .addColumn('public_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('design_id', 'integer', (c) => c.notNull().references('designs.id'))
    // The page's key for the attempt (a UUID); the platform's key is public_id.
    .addColumn('idempotency_key', 'varchar(36)', (c) => c.notNull())
    .addColumn('price_points', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('balance_after', 'integer')
    .addColumn('debit_id', 'varchar(100)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', timestamp)
    .addColumn('lease_token', 'varchar(40)')
    .addColumn('lease_until', timestamp)
    .addColumn('last_error', 'varchar(200)')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('completed_at', timestamp);
  for (const [name, condition] of Object.entries(STATE_CHECKS)) {
    builder = builder.addCheckConstraint(name, sql.raw(condition));
  }
  await builder.execute();
}

async function createRedemptionIndexes(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index redemptions_public_id on redemptions (public_id)`.execute(db);
  await sql`create unique index redemptions_key on redemptions (user_id, idempotency_key)`.execute(
    db,
  );
  await sql`create unique index redemptions_once on redemptions (user_id, design_id)
    where state <> 'refused'`.execute(db);
  await sql`create index redemptions_design on redemptions (design_id)`.execute(db);
  // What the retry worker looks for: pending redemptions by when they are due.
  await sql`create index redemptions_due on redemptions (next_attempt_at)
    where state = 'pending'`.execute(db);
}

async function restartIdentity(db: Kysely<unknown>, table: string): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
    coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(db);
}

/** On PostgreSQL the migration's own transaction; on SQLite (none given) one of its own. */
async function inOneTransaction(
  db: Kysely<unknown>,
  work: (db: Kysely<unknown>) => Promise<void>,
): Promise<void> {
  if (isPostgres(db)) await work(db);
  else await db.transaction().execute(work);
}

export const redemptionDebits: Migration = {
  async up(db: Kysely<unknown>) {
    await inOneTransaction(db, async (trx) => {
      await createRedemptions(trx, 'redemptions_next');
      await sql`
        insert into redemptions_next (id, public_id, user_id, design_id, idempotency_key,
          price_points, state, balance_after, debit_id, attempts, next_attempt_at, lease_token,
          lease_until, last_error, created_at, completed_at)
        select r.id, r.public_id, r.user_id, r.design_id, r.idempotency_key, r.price_points,
          'redeemed', l.balance_after, null, 0, null, null, null, null, r.created_at, r.created_at
        from redemptions r join point_ledger l on l.id = r.ledger_entry_id`.execute(trx);
      await trx.schema.dropTable('redemptions').execute();
      await trx.schema.dropTable('point_ledger').execute();
      await sql`alter table redemptions_next rename to redemptions`.execute(trx);
      await createRedemptionIndexes(trx);
      await restartIdentity(trx, 'redemptions');
    });
  },

  // Back to 0003's tables: each redeemed redemption with its ledger entry. Pending and refused
  // ones have no place there and are dropped (nothing was spent on a refused one; a pending one
  // is asked again by no one after this).
  async down(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    const id = serialId(db);
    await inOneTransaction(db, async (trx) => {
      await trx.schema
        .createTable('point_ledger')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('delta', 'integer', (c) => c.notNull())
        .addColumn('balance_after', 'integer', (c) => c.notNull())
        .addColumn('reason', 'varchar(20)', (c) => c.notNull())
        .addColumn('reference', 'varchar(80)', (c) => c.notNull())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addCheckConstraint('point_ledger_reason', sql`reason in ('earned', 'redemption')`)
        .addCheckConstraint('point_ledger_balance', sql`balance_after >= 0 and delta <> 0`)
        .execute();
      await trx.schema
        .createIndex('point_ledger_user')
        .on('point_ledger')
        .column('user_id')
        .execute();
      // The ledger entry takes the redemption's id: one each, found again by it.
      await sql`
        insert into point_ledger (id, user_id, delta, balance_after, reason, reference, created_at)
        select id, user_id, -price_points, balance_after, 'redemption',
          'redemption:' || public_id, created_at
        from redemptions where state = 'redeemed'`.execute(trx);
      await trx.schema
        .createTable('redemptions_before')
        .addColumn('id', 'integer', id)
        .addColumn('public_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('design_id', 'integer', (c) => c.notNull().references('designs.id'))
        .addColumn('idempotency_key', 'varchar(36)', (c) => c.notNull())
        .addColumn('price_points', 'integer', (c) => c.notNull())
        .addColumn('ledger_entry_id', 'integer', (c) =>
          c.notNull().unique().references('point_ledger.id'),
        )
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addUniqueConstraint('redemptions_once_before', ['user_id', 'design_id'])
        .addUniqueConstraint('redemptions_key_before', ['user_id', 'idempotency_key'])
        .execute();
      await sql`
        insert into redemptions_before (id, public_id, user_id, design_id, idempotency_key,
          price_points, ledger_entry_id, created_at)
        select id, public_id, user_id, design_id, idempotency_key, price_points, id, created_at
        from redemptions where state = 'redeemed'`.execute(trx);
      await trx.schema.dropTable('redemptions').execute();
      await sql`alter table redemptions_before rename to redemptions`.execute(trx);
      await sql`create index redemptions_design on redemptions (design_id)`.execute(trx);
      await restartIdentity(trx, 'redemptions');
      await restartIdentity(trx, 'point_ledger');
    });
  },
};
