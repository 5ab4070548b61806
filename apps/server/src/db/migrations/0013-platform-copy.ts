import { sql, type Kysely, type Migration } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';

/**
 * The site's copy of the platform's data (PRODUCT.md, "The app's platform"): what the signed
 * events bring in, with the version of each entity, what waits for what it names, the deliveries
 * already applied, users' points balances, and images that come from the platform's media hosts
 * (fetched in the background: an image row exists before its file).
 */
export const platformCopyTables: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);

    // The version of every entity the platform has told us of, applied, waiting or removed: an
    // event whose version is not above this one is ignored. `removed` keeps a removal's tombstone
    // so an older upsert arriving late cannot bring the entity back.
    await db.schema
      .createTable('platform_versions')
      .addColumn('type', 'varchar(10)', (c) => c.notNull())
      .addColumn('public_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addColumn('removed', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('platform_versions_pk', ['type', 'public_id'])
      .addCheckConstraint(
        'platform_versions_type',
        sql`type in ('user', 'goods', 'cabinet', 'note', 'design')`,
      )
      .execute();

    // An entity's latest event (its `data`, JSON) that names something not received yet: kept
    // here, and applied again when what it needs arrives. A cabinet is also shown meanwhile
    // with the goods it has, so it can be both here and in `cabinets`.
    await db.schema
      .createTable('platform_waiting')
      .addColumn('type', 'varchar(10)', (c) => c.notNull())
      .addColumn('public_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('received_at', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('platform_waiting_pk', ['type', 'public_id'])
      .execute();
    // What each waiting entity still needs: found by the id that arrives.
    await db.schema
      .createTable('platform_waiting_needs')
      .addColumn('type', 'varchar(10)', (c) => c.notNull())
      .addColumn('public_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('needs_type', 'varchar(10)', (c) => c.notNull())
      .addColumn('needs_id', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint('platform_waiting_needs_pk', [
        'type',
        'public_id',
        'needs_type',
        'needs_id',
      ])
      .execute();
    await db.schema
      .createIndex('platform_waiting_needs_by_need')
      .on('platform_waiting_needs')
      .columns(['needs_type', 'needs_id'])
      .execute();

    // Deliveries applied, by their `webhook-id`: the same id again changes nothing.
    await db.schema
      .createTable('platform_deliveries')
      .addColumn('webhook_id', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('applied', 'integer', (c) => c.notNull())
      .addColumn('ignored', 'integer', (c) => c.notNull())
      .addColumn('received_at', timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('platform_deliveries_received')
      .on('platform_deliveries')
      .column('received_at')
      .execute();

    // The balance the platform last told us (user.upserted's `points`).
    await db.schema
      .alterTable('users')
      .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    // Images from the platform: where the original is (`source_url`, one row per URL) and
    // whether its file is here yet. `file_name` is '' until it is. Rows of the site's own
    // (the demo seed's drawings) are `ready` with no source.
    await db.schema.alterTable('images').addColumn('source_url', 'varchar(2048)').execute();
    await db.schema
      .alterTable('images')
      .addColumn('state', 'varchar(10)', (c) =>
        c
          .notNull()
          .defaultTo('ready')
          .check(sql`state in ('waiting', 'ready', 'failed')`),
      )
      .execute();
    await db.schema
      .alterTable('images')
      .addColumn('fetch_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // When the next attempt may start (null: now); a server takes a fetch by moving it ahead
    // (a lease), so a fetch whose server died is taken again when the lease runs out.
    await db.schema.alterTable('images').addColumn('fetch_after', timestamp).execute();
    await db.schema.alterTable('images').addColumn('fetch_error', 'varchar(200)').execute();
    await db.schema
      .createIndex('images_source_url')
      .unique()
      .on('images')
      .column('source_url')
      .execute();
    await db.schema
      .createIndex('images_waiting')
      .on('images')
      .columns(['state', 'fetch_after'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('images_waiting').execute();
    await db.schema.dropIndex('images_source_url').execute();
    for (const column of ['fetch_error', 'fetch_after', 'fetch_attempts', 'state', 'source_url']) {
      await db.schema.alterTable('images').dropColumn(column).execute();
    }
    await db.schema.alterTable('users').dropColumn('points').execute();
    for (const table of [
      'platform_deliveries',
      'platform_waiting_needs',
      'platform_waiting',
      'platform_versions',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
