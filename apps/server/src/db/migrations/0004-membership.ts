import { sql, type Kysely, type Migration } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';

/**
 * iOS membership: the plans (App Store auto-renewable subscriptions), each user's app account
 * token, the App Store transactions the server has verified, the membership they add up to, and
 * the App Store notifications already handled. A transaction id and a notification UUID are each
 * unique, which is what makes a grant or a notification count once.
 */
export const membershipTables: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    await db.schema
      .createTable('membership_plans')
      .addColumn('product_id', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('title_zh', 'varchar(60)', (c) => c.notNull())
      .addColumn('title_en', 'varchar(60)', (c) => c.notNull())
      .addColumn('period', 'varchar(10)', (c) => c.notNull())
      .addColumn('price_fen', 'integer', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addCheckConstraint('membership_plans_period', sql`period in ('month', 'quarter', 'year')`)
      .addCheckConstraint('membership_plans_price', sql`price_fen >= 0`)
      .execute();

    await db.schema
      .createTable('app_account_tokens')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('token', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('app_store_transactions')
      .addColumn('id', 'integer', serialId(db))
      .addColumn('transaction_id', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('original_transaction_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('product_id', 'varchar(100)', (c) =>
        c.notNull().references('membership_plans.product_id'),
      )
      .addColumn('purchase_date', timestamp, (c) => c.notNull())
      .addColumn('expires_date', timestamp, (c) => c.notNull())
      .addColumn('revoked_at', timestamp)
      .addColumn('environment', 'varchar(20)', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('app_store_transactions_dates', sql`expires_date > purchase_date`)
      .execute();
    await db.schema
      .createIndex('app_store_transactions_user')
      .on('app_store_transactions')
      .column('user_id')
      .execute();
    await db.schema
      .createIndex('app_store_transactions_original')
      .on('app_store_transactions')
      .column('original_transaction_id')
      .execute();

    // What the transactions add up to, kept in one row per user so a page reads it at once.
    await db.schema
      .createTable('memberships')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('product_id', 'varchar(100)', (c) =>
        c.notNull().references('membership_plans.product_id'),
      )
      .addColumn('original_transaction_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .addColumn('auto_renew', 'integer')
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addCheckConstraint('memberships_auto_renew', sql`auto_renew in (0, 1)`)
      .execute();

    await db.schema
      .createTable('app_store_notifications')
      .addColumn('notification_uuid', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('notification_type', 'varchar(40)', (c) => c.notNull())
      .addColumn('subtype', 'varchar(40)')
      .addColumn('received_at', timestamp, (c) => c.notNull())
      .execute();

    // The plans are the App Store's products: they exist in production as in demo mode.
    await sql`insert into membership_plans (product_id, title_zh, title_en, period, price_fen, position) values
      ('vip.monthly', '连续包月会员', 'Monthly membership', 'month', 2500, 1),
      ('vip.quarterly', '连续包季会员', 'Quarterly membership', 'quarter', 6800, 2),
      ('vip.yearly', '连续包年会员', 'Yearly membership', 'year', 23800, 3)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'app_store_notifications',
      'memberships',
      'app_store_transactions',
      'app_account_tokens',
      'membership_plans',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
