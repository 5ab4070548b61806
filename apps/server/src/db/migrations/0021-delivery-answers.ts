import type { Kysely, Migration } from 'kysely';

/**
 * What a delivery of the platform's events answered, beyond `applied` and `ignored`: the events
 * kept waiting for what they name, and the ignored ones counted by reason (JSON:
 * `{ not_newer, unknown_type, account_deleted }`), so a repeat of its `webhook-id` answers the
 * same. Null for deliveries recorded before: a repeat of one answers the two figures it had.
 */
export const deliveryAnswers: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('platform_deliveries').addColumn('waiting', 'integer').execute();
    await db.schema
      .alterTable('platform_deliveries')
      .addColumn('ignored_because', 'varchar(200)')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('platform_deliveries').dropColumn('ignored_because').execute();
    await db.schema.alterTable('platform_deliveries').dropColumn('waiting').execute();
  },
};
