import { sql, type Kysely, type Migration } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';
import { serialId } from './serial-id.ts';

/**
 * Handoff codes (docs/decisions/0017-app-links-and-handoffs.md): a share text's code, its target and its times, nothing about the
 * visitor. A claim is kept as a digest of the code and the app's install id together, so the same
 * install claiming again counts once, and no install can be recognised across codes. Both go 14
 * days after minting (7 valid, 7 more to answer "expired").
 */
export const appLinkHandoffTables: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    await db.schema
      .createTable('app_link_handoffs')
      .addColumn('id', 'integer', serialId(db))
      .addColumn('code_digest', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('target_kind', 'varchar(10)', (c) => c.notNull())
      .addColumn('target_id', 'varchar(16)', (c) => c.notNull())
      .addColumn('target_image', 'integer')
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addColumn('expires_at', timestamp, (c) => c.notNull())
      .addCheckConstraint(
        'app_link_handoffs_kind',
        sql`target_kind in ('goods', 'cabinet', 'note')`,
      )
      .addCheckConstraint(
        'app_link_handoffs_image',
        sql`target_image is null or (target_kind = 'goods' and target_image >= 0)`,
      )
      .execute();
    await db.schema
      .createIndex('app_link_handoffs_expires')
      .on('app_link_handoffs')
      .column('expires_at')
      .execute();
    await db.schema
      .createTable('app_link_claims')
      .addColumn('handoff_id', 'integer', (c) =>
        c.notNull().references('app_link_handoffs.id').onDelete('cascade'),
      )
      .addColumn('install_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('claimed_at', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('app_link_claims_pk', ['handoff_id', 'install_digest'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('app_link_claims').execute();
    await db.schema.dropTable('app_link_handoffs').execute();
  },
};
