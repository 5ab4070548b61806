import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { phoneProtection } from './crypto/phone-protection.ts';
import type { Db } from './db/database.ts';
import { migrations } from './db/migrations.ts';
import { SchemaBehindError } from './db/schema-status.ts';
import { emptyTestDatabase, type EmptyTestDatabase } from './test-support/empty-database.ts';
import { buildTestApp } from './test-support/test-app.ts';
import { TEST_PHONE_KEYS } from './test-support/test-phone-keys.ts';

/**
 * Migrations are a step of their own (docs/decisions/0028-migrations-as-a-step.md): a production
 * server never migrates on start; it refuses a database behind its code and warns about one ahead
 * of it. A demo server still migrates on start.
 */
const context = { phones: phoneProtection(TEST_PHONE_KEYS) };
const NAMES = Object.keys(migrations(context));
const LATEST = NAMES.at(-1) ?? '';
const PRODUCTION = { APP_MODE: 'production', PUBLIC_ORIGIN: 'https://www.example.com' };

let database: EmptyTestDatabase | undefined;
afterEach(async () => {
  await database?.remove();
  database = undefined;
});

/** Every table of the database, Kysely's own too, and the migrations it has applied. */
async function contents(db: Db): Promise<{ tables: string[]; applied: string[] }> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const names = tables.map((table) => table.name).sort();
  const applied = names.includes('kysely_migration')
    ? (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db))
        .rows
    : [];
  return { tables: names, applied: applied.map((row) => row.name) };
}

async function withDb<T>(look: (db: Db) => Promise<T>): Promise<T> {
  if (!database) throw new Error('no database');
  const db = await database.open();
  try {
    return await look(db);
  } finally {
    await db.destroy();
  }
}

/** Applies this code's migrations up to `last` (all of them when not named). */
async function migrateUpTo(last: string): Promise<void> {
  await withDb(async (db) => {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve({ ...migrations(context) }) },
    });
    const { error } = await migrator.migrateTo(last);
    if (error !== undefined) throw new Error(`migrating up to ${last} failed`, { cause: error });
  });
}

async function refusal(env: Record<string, string>): Promise<SchemaBehindError> {
  const error: unknown = await buildTestApp(
    { ...PRODUCTION, ...env },
    { skipMigrateStep: true },
  ).then(
    async (app) => {
      await app.close();
      return undefined;
    },
    (failure: unknown) => failure,
  );
  if (!(error instanceof SchemaBehindError)) throw new Error(`not refused: ${String(error)}`);
  return error;
}

describe('a production server', () => {
  it('refuses an empty database, naming the migrations it lacks, and writes nothing', async () => {
    database = await emptyTestDatabase();
    const error = await refusal(database.env);
    expect(error.missing).toEqual(NAMES);
    expect(error.message).toContain(LATEST);
    expect(error.message).toContain('npm run migrate');
    expect(await withDb(contents)).toEqual({ tables: [], applied: [] });
  });

  it('refuses a database without the last migration, naming it, and changes nothing', async () => {
    database = await emptyTestDatabase();
    const before = NAMES.at(-2) ?? '';
    await migrateUpTo(before);
    const was = await withDb(contents);
    expect(was.applied).toEqual(NAMES.slice(0, -1));
    const error = await refusal(database.env);
    expect(error.missing).toEqual([LATEST]);
    expect(error.message).toMatch(new RegExp(`lacks migration ${LATEST} .*npm run migrate`));
    expect(await withDb(contents)).toEqual(was);
  });

  it('starts on a database with a migration it does not know, and warns naming it', async () => {
    database = await emptyTestDatabase();
    await migrateUpTo(LATEST);
    const newer = '9999-from-a-newer-version';
    await withDb((db) =>
      sql`insert into kysely_migration (name, timestamp) values (${newer}, ${new Date().toISOString()})`.execute(
        db,
      ),
    );
    const lines: string[] = [];
    const app = await buildTestApp(
      { ...PRODUCTION, ...database.env, LOG_LEVEL: 'warn' },
      { skipMigrateStep: true, logStream: { write: (line) => lines.push(line) } },
    );
    await app.close();
    const warnings = lines
      .map((line) => JSON.parse(line) as { msg: string; unknownMigrations?: string[] })
      .filter((line) => line.unknownMigrations !== undefined);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.unknownMigrations).toEqual([newer]);
    expect(warnings[0]?.msg).toContain(newer);
  });

  it('starts once the migrate step has run (buildTestApp runs it, as a deployment does)', async () => {
    database = await emptyTestDatabase();
    const app = await buildTestApp({ ...PRODUCTION, ...database.env });
    await app.close();
    expect((await withDb(contents)).applied).toEqual(NAMES);
  });
});

describe('a demo server', () => {
  it('still migrates an empty database on start', async () => {
    database = await emptyTestDatabase();
    const app = await buildTestApp(database.env);
    await app.close();
    expect((await withDb(contents)).applied).toEqual(NAMES);
    // Every migration and the whole demo community on an empty database: a limit for a hang,
    // which a machine at a quarter of its speed stays well within (60 s was not, loaded).
  }, 180_000);
});
