import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../database.ts';
import { changeChecks } from './check-constraints.ts';
import { isoTimestamp } from './iso-timestamp.ts';

/**
 * The platform's ids and balances (PRODUCT.md, "The app's platform").
 *
 * Ids: the app's share links carry the platform's ids, 1 to 64 of `A–Z a–z 0–9 _ -` (the
 * contract's PUBLIC_ID_PATTERN), so every column that holds a public id, declared `varchar(16)`
 * by 0001, 0003, 0005, 0010 and 0011, becomes `varchar(64)` on PostgreSQL. Widening a varchar is
 * a change of the catalogue only there (no table rewrite, the indexes stay). SQLite does not
 * enforce a declared length (a `varchar(n)` column is TEXT), so a 64-character id is already
 * stored whole there: nothing to change. The ids the site makes itself stay 16 characters.
 *
 * Points: a user's balance is `users.points` (0013), which the platform's `user.upserted` sets.
 * `point_balances` is copied into it (no row meant 0) and dropped, and the database keeps the
 * rule it held there: a balance is never below zero. Copy, drop and rule commit together.
 */

/** Every column that holds a public id, by table. */
const PUBLIC_ID_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['images', 'public_id'],
  ['users', 'public_id'],
  ['goods', 'public_id'],
  ['cabinets', 'public_id'],
  ['notes', 'public_id'],
  ['comments', 'public_id'],
  ['designs', 'public_id'],
  ['redemptions', 'public_id'],
  ['media_deletions', 'image_public_id'],
  ['app_link_handoffs', 'target_id'],
  ['share_funnel_days', 'item_id'],
];

const POINTS_CHECK = 'users_points_nonnegative';

async function setPublicIdLength(db: Kysely<unknown>, length: 16 | 64): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [table, column] of PUBLIC_ID_COLUMNS) {
    await db.schema
      .alterTable(table)
      .alterColumn(column, (c) => c.setDataType(`varchar(${length})`))
      .execute();
  }
}

export const platformIdsAndPoints: Migration = {
  async up(db: Kysely<unknown>) {
    await setPublicIdLength(db, 64);
    await changeChecks(db, 'users', {
      drop: [],
      add: { [POINTS_CHECK]: 'points >= 0' },
      async first(trx) {
        await sql`
          update users set points = coalesce(
            (select b.balance from point_balances b where b.user_id = users.id), 0)`.execute(trx);
        await trx.schema.dropTable('point_balances').execute();
      },
    });
  },

  // Back to 0013: one balance row per user with points, and ids of 16 characters (which fails,
  // changing nothing, while a longer id is stored on PostgreSQL).
  async down(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    await changeChecks(db, 'users', {
      drop: [POINTS_CHECK],
      add: {},
      async first(trx) {
        await trx.schema
          .createTable('point_balances')
          .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
          .addColumn('balance', 'integer', (c) => c.notNull())
          .addColumn('updated_at', timestamp, (c) => c.notNull())
          .addCheckConstraint('point_balances_nonnegative', sql`balance >= 0`)
          .execute();
        await sql`
          insert into point_balances (user_id, balance, updated_at)
          select id, points, ${new Date().toISOString()} from users where points > 0`.execute(trx);
      },
    });
    await setPublicIdLength(db, 16);
  },
};
