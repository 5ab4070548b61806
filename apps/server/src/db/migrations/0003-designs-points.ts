import { sql, type Kysely, type Migration } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';

/**
 * Design drawings, users' points and their redemption. The rules that keep points honest are the
 * database's own, so they hold with several servers on one PostgreSQL as well as on SQLite:
 * a balance never goes below zero, one redemption per user and design, one per idempotency key
 * and user; every change of a balance has its ledger entry (written in the same transaction).
 */
export const designPointTables: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    const id = serialId(db);

    await db.schema
      .createTable('designs')
      .addColumn('id', 'integer', id)
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('designer_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('title', 'varchar(60)', (c) => c.notNull())
      .addColumn('preview_image_id', 'integer', (c) => c.notNull().references('images.id'))
      .addColumn('price_points', 'integer', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('retired_at', timestamp)
      .addCheckConstraint('designs_price', sql`price_points > 0`)
      .execute();
    await db.schema.createIndex('designs_designer').on('designs').column('designer_id').execute();
    await db.schema
      .createIndex('designs_preview')
      .on('designs')
      .column('preview_image_id')
      .execute();

    // One row per user who ever had points; no row means 0.
    await db.schema
      .createTable('point_balances')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('balance', 'integer', (c) => c.notNull())
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('point_balances_nonnegative', sql`balance >= 0`)
      .execute();

    await db.schema
      .createTable('point_ledger')
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('delta', 'integer', (c) => c.notNull())
      .addColumn('balance_after', 'integer', (c) => c.notNull())
      .addColumn('reason', 'varchar(20)', (c) => c.notNull())
      // What the change belongs to, e.g. `redemption:<public id>` or `task:daily-check-in`.
      .addColumn('reference', 'varchar(80)', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('point_ledger_reason', sql`reason in ('earned', 'redemption')`)
      .addCheckConstraint('point_ledger_balance', sql`balance_after >= 0 and delta <> 0`)
      .execute();
    await db.schema.createIndex('point_ledger_user').on('point_ledger').column('user_id').execute();

    await db.schema
      .createTable('redemptions')
      .addColumn('id', 'integer', id)
      .addColumn('public_id', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('design_id', 'integer', (c) => c.notNull().references('designs.id'))
      .addColumn('idempotency_key', 'varchar(36)', (c) => c.notNull())
      .addColumn('price_points', 'integer', (c) => c.notNull())
      .addColumn('ledger_entry_id', 'integer', (c) =>
        c.notNull().unique().references('point_ledger.id'),
      )
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addUniqueConstraint('redemptions_once', ['user_id', 'design_id'])
      .addUniqueConstraint('redemptions_key', ['user_id', 'idempotency_key'])
      .execute();
    await db.schema
      .createIndex('redemptions_design')
      .on('redemptions')
      .column('design_id')
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['redemptions', 'point_ledger', 'point_balances', 'designs']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
