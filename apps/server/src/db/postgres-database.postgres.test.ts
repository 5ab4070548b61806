import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, openPool } from '../test-support/postgres-only.ts';
import { refusal } from '../test-support/database-refusal.ts';
import { phoneProtection } from '../crypto/phone-protection.ts';
import { TEST_PHONE_KEYS } from '../test-support/test-phone-keys.ts';
import { migrateToLatest, migrations } from './migrations.ts';

const context = { phones: phoneProtection(TEST_PHONE_KEYS) };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function emptyDatabase(): Promise<string> {
  const { url, drop } = await emptyPostgresDatabase();
  cleanup.push(drop);
  return url;
}

async function pool(url: string, size = 1) {
  const db = await openPool(url, size);
  cleanup.push(() => db.destroy());
  return db;
}

describe('PostgreSQL', () => {
  it('refuses a database that does not exist or a user it does not know, never showing the password', async () => {
    const url = new URL(await emptyDatabase());
    const missing = new URL(url);
    missing.pathname = '/no_such_database';
    missing.password = 's3cret-pw';
    const error = await refusal(missing.href);
    expect(error.message).toMatch(/^DATABASE_URL: .*\/no_such_database: .*does not exist/);
    expect(error.message).not.toContain('s3cret-pw');

    const stranger = new URL(url);
    stranger.username = 'nobody';
    stranger.password = 's3cret-pw';
    const refused = await refusal(stranger.href);
    expect(refused.message).toMatch(/^DATABASE_URL: cannot connect to PostgreSQL at nobody@/);
    expect(refused.message).not.toContain('s3cret-pw');
  });

  it('migrates once when several servers start at the same time', async () => {
    const url = await emptyDatabase();
    const servers = await Promise.all([1, 2, 3, 4].map(() => pool(url)));
    await Promise.all(servers.map((db) => migrateToLatest(db, context)));
    const [first] = servers;
    if (!first) throw new Error('no server');
    const applied = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(first);
    expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations(context)));
  });

  it('keeps timestamps in byte order (COLLATE "C"), whatever the database locale', async () => {
    const db = await pool(await emptyDatabase());
    await migrateToLatest(db, context);
    const columns = await sql<{
      table_name: string;
      column_name: string;
      collation_name: string | null;
    }>`
      select table_name, column_name, collation_name from information_schema.columns
      where table_schema = 'public' and data_type = 'character varying'
        and (column_name like '%\\_at' or column_name like '%\\_date' or column_name = 'retain_until')`.execute(
      db,
    );
    expect(columns.rows.length).toBeGreaterThan(30);
    expect(columns.rows.filter((column) => column.collation_name !== 'C')).toEqual([]);
  });

  it('reads counts and sums as numbers, as SQLite does', async () => {
    const db = await pool(await emptyDatabase());
    await migrateToLatest(db, context);
    const row = await db
      .selectFrom('membership_plans')
      .select([(eb) => eb.fn.countAll().as('count'), sql<number>`sum(price_fen)`.as('sum')])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ count: 3, sum: 2500 + 6800 + 23800 });
  });
});
