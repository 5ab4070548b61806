import type { Kysely, Migration } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';

/**
 * Sessions of the app's users. Only a hash of each token is kept: a copy of the database gives
 * nobody a way in. A session ends at `expires_at` or when revoked (log-out, account deletion).
 */
export const sessionTables: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'integer', serialId(db))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .addColumn('revoked_at', timestamp)
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sessions').execute();
  },
};
