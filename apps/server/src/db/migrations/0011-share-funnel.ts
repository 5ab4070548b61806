import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../database.ts';

/**
 * The share funnel (docs/decisions/0018-share-funnel-and-operators-listener.md): a count per day, kind of share, item, channel and event, added
 * to by every server once a second. Nothing about a visitor: no address, User-Agent, cookie or
 * identifier, only the item's public id and the sums. Days are China's (UTC+8); rows older than
 * 400 days are removed by the periodic work.
 */
export const shareFunnelTable: Migration = {
  async up(db: Kysely<unknown>) {
    // Days compare as text, byte by byte on both engines (see iso-timestamp.ts).
    const day = isPostgres(db) ? sql`varchar(10) collate "C"` : 'varchar(10)';
    await db.schema
      .createTable('share_funnel_days')
      .addColumn('day', day, (c) => c.notNull())
      .addColumn('kind', 'varchar(10)', (c) => c.notNull())
      .addColumn('item_id', 'varchar(16)', (c) => c.notNull())
      .addColumn('channel', 'varchar(20)', (c) => c.notNull())
      .addColumn('event', 'varchar(20)', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('share_funnel_days_pk', [
        'day',
        'kind',
        'item_id',
        'channel',
        'event',
      ])
      .addCheckConstraint('share_funnel_days_kind', sql`kind in ('goods', 'cabinet', 'note')`)
      .addCheckConstraint(
        'share_funnel_days_channel',
        sql`channel in ('wechat', 'qq', 'weibo', 'other_in_app', 'safari', 'chrome', 'other')`,
      )
      .addCheckConstraint(
        'share_funnel_days_event',
        sql`event in ('viewed', 'open_tapped', 'store_fallback', 'guide_shown', 'link_copied', 'poster_opened', 'link_fallback', 'handoff_minted', 'handoff_claimed')`,
      )
      .addCheckConstraint('share_funnel_days_count', sql`count > 0`)
      .execute();
    // One item's funnel over a range of days (the operators' page, /api/funnel?kind&id).
    await db.schema
      .createIndex('share_funnel_days_item')
      .on('share_funnel_days')
      .columns(['kind', 'item_id', 'day'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('share_funnel_days').execute();
  },
};
