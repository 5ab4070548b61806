import { sql, type Kysely, type Migration } from 'kysely';
import { isoTimestamp } from './iso-timestamp.ts';

/**
 * WeChat's access_token and jsapi_ticket, per official account, shared by every server (WeChat
 * limits how often they may be fetched). A lease (lease_token, lease_until) lets one server at a
 * time fetch a new one; a lease_until without a token holds the others back after a failure.
 */
export const weChatCredentialsTable: Migration = {
  async up(db: Kysely<unknown>) {
    const timestamp = isoTimestamp(db);
    await db.schema
      .createTable('wechat_credentials')
      .addColumn('kind', 'varchar(20)', (c) => c.notNull())
      .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
      .addColumn('value', 'varchar(2048)')
      .addColumn('expires_at', timestamp)
      .addColumn('lease_token', 'varchar(40)')
      .addColumn('lease_until', timestamp)
      .addColumn('updated_at', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('wechat_credentials_pk', ['kind', 'app_id'])
      .addCheckConstraint('wechat_credentials_kind', sql`kind in ('access_token', 'jsapi_ticket')`)
      .addCheckConstraint(
        'wechat_credentials_value_expires',
        sql`(value is null) = (expires_at is null)`,
      )
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('wechat_credentials').execute();
  },
};
