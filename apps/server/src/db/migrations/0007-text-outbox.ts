import { sql, type Kysely, type Migration } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';

/**
 * Texts owed to a user (the deletion notice, privacy policy 11.5): queued in the transaction that
 * owes them, sent after it commits, retried with backoff. The number stays encrypted until it is
 * sent and is wiped once sent or given up; a lease lets one server at a time send each row.
 */
export const textOutboxTable: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    await db.schema
      .createTable('text_outbox')
      .addColumn('id', 'integer', serialId(db))
      .addColumn('kind', 'varchar(30)', (c) => c.notNull())
      .addColumn('phone_encrypted', 'varchar(200)')
      .addColumn('queued_at', timestamp, (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', timestamp, (c) => c.notNull())
      .addColumn('lease_token', 'varchar(40)')
      .addColumn('lease_until', timestamp)
      .addColumn('sent_at', timestamp)
      .addColumn('failed_at', timestamp)
      .addColumn('last_error', 'varchar(200)')
      .addCheckConstraint('text_outbox_kind', sql`kind in ('account_deleted')`)
      .addCheckConstraint('text_outbox_one_outcome', sql`sent_at is null or failed_at is null`)
      // Once sent or given up, the number is gone.
      .addCheckConstraint(
        'text_outbox_wiped',
        sql`(sent_at is null and failed_at is null) or phone_encrypted is null`,
      )
      .execute();
    await db.schema
      .createIndex('text_outbox_due')
      .on('text_outbox')
      .columns(['sent_at', 'failed_at', 'next_attempt_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('text_outbox').execute();
  },
};
