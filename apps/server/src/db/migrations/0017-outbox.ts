import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../database.ts';
import { textOutboxTable } from './0007-text-outbox.ts';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';

/**
 * One outbox for everything the site owes to others (docs/decisions/0025-outbox.md): the texts
 * owed to users (0007's `text_outbox`, whose rows move here) and the events the platform must
 * hear (PRODUCT.md, "Events out"). A row is queued in the transaction that owes it and delivered
 * after that commits, under a lease. `partition_key` orders a channel's rows: of one key, one
 * delivery at a time, oldest first (a user's events: the SHA-256 of the user's id, never the id).
 * `webhook_id` is the delivery an event was first sent in: a retry sends the same rows under it.
 * The payload (an encrypted phone number, an event's JSON) is wiped once delivered or given up.
 *
 * `users.membership_version`: the `version` of the user's `membership.changed` events, raised
 * with each one in the transaction of the change.
 */
const COLUMNS = [
  'kind',
  'queued_at',
  'attempts',
  'next_attempt_at',
  'lease_token',
  'lease_until',
  'last_error',
] as const;

async function createOutbox(db: Kysely<unknown>): Promise<void> {
  const timestamp = isoTimestamp(db);
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', serialId(db))
    .addColumn('channel', 'varchar(20)', (c) => c.notNull())
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('partition_key', 'varchar(64)')
    .addColumn('payload', 'text')
    .addColumn('queued_at', timestamp, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', timestamp, (c) => c.notNull())
    .addColumn('lease_token', 'varchar(40)')
    .addColumn('lease_until', timestamp)
    .addColumn('webhook_id', 'varchar(80)')
    .addColumn('delivered_at', timestamp)
    .addColumn('failed_at', timestamp)
    .addColumn('last_error', 'varchar(200)')
    .addCheckConstraint('outbox_channel', sql`channel in ('text', 'platform_events')`)
    .addCheckConstraint('outbox_one_outcome', sql`delivered_at is null or failed_at is null`)
    // Once delivered or given up, what was owed is gone (a number, an event naming a user).
    .addCheckConstraint(
      'outbox_wiped',
      sql`(delivered_at is null and failed_at is null) or payload is null`,
    )
    .execute();
  await db.schema
    .createIndex('outbox_pending')
    .on('outbox')
    .columns(['channel', 'delivered_at', 'failed_at', 'id'])
    .execute();
  await db.schema.createIndex('outbox_delivery').on('outbox').column('webhook_id').execute();
}

/** Work that must commit whole: PostgreSQL runs a migration in a transaction, SQLite does not. */
function whole(db: Kysely<unknown>, work: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  return isPostgres(db) ? work(db) : db.transaction().execute(work);
}

export const outboxTable: Migration = {
  async up(db: Kysely<unknown>) {
    await whole(db, async (trx) => {
      await createOutbox(trx);
      const copied = sql.join(COLUMNS.map((column) => sql.ref(column)));
      await sql`
        insert into outbox (channel, payload, delivered_at, failed_at, ${copied})
        select 'text', phone_encrypted, sent_at, failed_at, ${copied}
        from text_outbox order by id`.execute(trx);
      await trx.schema.dropTable('text_outbox').execute();
      await trx.schema
        .alterTable('users')
        .addColumn('membership_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    });
  },
  async down(db: Kysely<unknown>) {
    await whole(db, async (trx) => {
      await textOutboxTable.up(trx);
      const copied = sql.join(COLUMNS.map((column) => sql.ref(column)));
      await sql`
        insert into text_outbox (phone_encrypted, sent_at, failed_at, ${copied})
        select payload, delivered_at, failed_at, ${copied}
        from outbox where channel = 'text' order by id`.execute(trx);
      await trx.schema.dropTable('outbox').execute();
      await trx.schema.alterTable('users').dropColumn('membership_version').execute();
    });
  },
};
