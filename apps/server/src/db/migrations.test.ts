import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { migrations, migrateToLatest } from './migrations.ts';

let current: TestDatabase | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('migrations', () => {
  it('build every table on an empty database, and running them again changes nothing', async () => {
    current = await openTestDatabase({ seed: false });
    const tables = await current.db.introspection.getTables();
    expect(tables.map((table) => table.name).sort()).toEqual(
      [
        'app_account_tokens',
        'app_store_notifications',
        'app_store_transactions',
        'account_cases',
        'account_deletion_requests',
        'media_deletions',
        'text_outbox',
        'share_funnel_days',
        'wechat_credentials',
        'retained_records',
        'sms_codes',
        'cabinet_goods',
        'cabinets',
        'comments',
        'designs',
        'goods',
        'goods_images',
        'images',
        'membership_plans',
        'memberships',
        'note_images',
        'notes',
        'point_balances',
        'point_ledger',
        'redemptions',
        'sessions',
        'users',
      ].sort(),
    );
    await migrateToLatest(current.db, { phones: current.phones });
    const applied = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(current.db);
    expect(applied.rows.map((row) => row.name)).toEqual(
      Object.keys(migrations({ phones: current.phones })),
    );
  });

  it('enforce the rules the code relies on: foreign keys, statuses, unique public ids', async () => {
    current = await openTestDatabase({ seed: false });
    const { db } = current;
    const now = new Date().toISOString();
    const goods = {
      public_id: 'AAAAAAAAAAAAAAAA',
      owner_id: 999,
      name: 'x',
      work: 'x',
      character: null,
      category: 'x',
      price_fen: null,
      status: 'display' as const,
      text: '',
      tags: '[]',
      likes: 0,
      wants: 0,
      visibility: 'public' as const,
      created_at: now,
      removed_at: null,
    };
    await expect(db.insertInto('goods').values(goods).execute()).rejects.toThrow(/FOREIGN KEY/i);
    const user = await db
      .insertInto('users')
      .values({
        public_id: 'BBBBBBBBBBBBBBBB',
        nickname: 'n',
        avatar_image_id: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto('goods')
        .values({ ...goods, owner_id: user.id, status: 'swap' as 'display' })
        .execute(),
    ).rejects.toThrow(/CHECK/i);
    await db
      .insertInto('goods')
      .values({ ...goods, owner_id: user.id })
      .execute();
    await expect(
      db
        .insertInto('goods')
        .values({ ...goods, owner_id: user.id })
        .execute(),
    ).rejects.toThrow(/UNIQUE/i);
  });
});
