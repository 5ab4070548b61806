import { sql, type Kysely, type Migration } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';

/**
 * Account deletion (privacy policy 2025-10-15, 8.2 and 11.5): the bound phone the SMS code goes
 * to, the deletion requests with their cool-off, the SMS codes (hashed), the cases that block a
 * deletion (exposures in review, open appeals, investigations), the records the law makes us keep
 * after a deletion, and a queue of image files to remove once their rows are gone.
 */
export const accountDeletionTables: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    const id = serialId(db);

    await db.schema.alterTable('users').addColumn('phone', 'varchar(20)').execute();
    // Set when the deletion job has anonymized the account: it can never log in again.
    await db.schema.alterTable('users').addColumn('deleted_at', timestamp).execute();
    await db.schema.createIndex('users_phone').unique().on('users').column('phone').execute();

    await db.schema
      .createTable('account_deletion_requests')
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('requested_at', timestamp, (c) => c.notNull())
      .addColumn('deletes_at', timestamp, (c) => c.notNull())
      .addColumn('cancelled_at', timestamp)
      .addColumn('cancel_reason', 'varchar(10)')
      .addColumn('completed_at', timestamp)
      .addCheckConstraint(
        'deletion_cancel_reason',
        sql`cancel_reason is null or cancel_reason in ('user', 'login')`,
      )
      .addCheckConstraint('deletion_one_outcome', sql`cancelled_at is null or completed_at is null`)
      .execute();
    // At most one pending request per user, whatever races.
    await db.schema
      .createIndex('deletion_requests_pending')
      .unique()
      .on('account_deletion_requests')
      .column('user_id')
      .where(sql.ref('cancelled_at'), 'is', null)
      .where(sql.ref('completed_at'), 'is', null)
      .execute();
    await db.schema
      .createIndex('deletion_requests_due')
      .on('account_deletion_requests')
      .column('deletes_at')
      .execute();

    await db.schema
      .createTable('sms_codes')
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('phone', 'varchar(20)', (c) => c.notNull())
      .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
      .addColumn('code_hash', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('used_at', timestamp)
      .addCheckConstraint('sms_codes_purpose', sql`purpose in ('account_deletion')`)
      .execute();
    await db.schema
      .createIndex('sms_codes_user')
      .on('sms_codes')
      .columns(['user_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('sms_codes_phone')
      .on('sms_codes')
      .columns(['phone', 'created_at'])
      .execute();

    await db.schema
      .createTable('account_cases')
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'varchar(30)', (c) => c.notNull())
      .addColumn('title', 'varchar(100)', (c) => c.notNull())
      .addColumn('status', 'varchar(10)', (c) => c.notNull())
      .addColumn('opened_at', timestamp, (c) => c.notNull())
      .addColumn('closed_at', timestamp)
      .addCheckConstraint(
        'account_cases_kind',
        sql`kind in ('exposure_in_review', 'appeal_open', 'under_investigation')`,
      )
      .addCheckConstraint('account_cases_status', sql`status in ('open', 'closed')`)
      .execute();
    await db.schema
      .createIndex('account_cases_user')
      .on('account_cases')
      .columns(['user_id', 'status'])
      .execute();

    await db.schema
      .createTable('retained_records')
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'varchar(30)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('retain_until', timestamp, (c) => c.notNull())
      .addCheckConstraint('retained_records_kind', sql`kind in ('goods')`)
      .execute();
    await db.schema
      .createIndex('retained_records_until')
      .on('retained_records')
      .column('retain_until')
      .execute();

    await db.schema
      .createTable('media_deletions')
      .addColumn('id', 'integer', id)
      .addColumn('image_public_id', 'varchar(16)', (c) => c.notNull())
      .addColumn('file_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('queued_at', timestamp, (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'media_deletions',
      'retained_records',
      'account_cases',
      'sms_codes',
      'account_deletion_requests',
    ]) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropIndex('users_phone').execute();
    await db.schema.alterTable('users').dropColumn('deleted_at').execute();
    await db.schema.alterTable('users').dropColumn('phone').execute();
  },
};
