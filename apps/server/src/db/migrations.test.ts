import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { migrations, migrateToLatest } from './migrations.ts';
import { TABLES_CHILDREN_FIRST } from './user-data.ts';

let current: TestDatabase | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('migrations', () => {
  it('build every table on an empty database, and running them again changes nothing', async () => {
    current = await openTestDatabase({ seed: false });
    const tables = await current.db.introspection.getTables();
    // Every table the list of a user's data names (user-data.test.ts says what each must hold).
    expect(tables.map((table) => table.name).sort()).toEqual([...TABLES_CHILDREN_FIRST].sort());
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
