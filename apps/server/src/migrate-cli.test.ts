import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuiltMigrate } from '../../../tests/support/built-migrate.ts';
import { phoneProtection } from './crypto/phone-protection.ts';
import { migrations } from './db/migrations.ts';
import { emptyTestDatabase, type EmptyTestDatabase } from './test-support/empty-database.ts';
import { buildTestApp, TEST_PRODUCTION_ENV } from './test-support/test-app.ts';
import { TEST_PHONE_KEYS } from './test-support/test-phone-keys.ts';

/**
 * `npm run migrate` as it is run: the built dist/migrate.js (npm run build), with the settings a
 * server would have, on the tests' engine.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../dist/migrate.js', import.meta.url));
const NAMES = Object.keys(migrations({ phones: phoneProtection(TEST_PHONE_KEYS) }));
const LATEST = NAMES.at(-1) ?? '';
const PRODUCTION_ENV = {
  ...TEST_PRODUCTION_ENV,
};

let database: EmptyTestDatabase | undefined;
afterEach(async () => {
  await database?.remove();
  database = undefined;
});

function migrate(env: Record<string, string>) {
  expect(existsSync(CLI), 'needs the build: npm run build').toBe(true);
  return runBuiltMigrate({ root: ROOT, env: { LOG_LEVEL: 'silent', ...env } });
}

async function applied(): Promise<string[]> {
  if (!database) throw new Error('no database');
  const db = await database.open();
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    return rows.rows.map((row) => row.name).sort();
  } finally {
    await db.destroy();
  }
}

describe('npm run migrate', () => {
  it('applies every migration to an empty database and says so; a second run applies none', async () => {
    database = await emptyTestDatabase();
    const first = await migrate({ APP_MODE: 'demo', ...database.env });
    expect(first).toEqual({
      code: 0,
      output: `Applied ${NAMES.length} migrations: ${NAMES.join(', ')}; the schema is current (${LATEST}).\n`,
    });
    expect(await applied()).toEqual(NAMES);
    const second = await migrate({ APP_MODE: 'demo', ...database.env });
    expect(second).toEqual({
      code: 0,
      output: `The schema is already current (${LATEST}): nothing to apply.\n`,
    });
    expect(await applied()).toEqual(NAMES);
  });

  it('migrates with production settings, after which a production server starts', async () => {
    database = await emptyTestDatabase();
    const run = await migrate({ ...PRODUCTION_ENV, ...database.env });
    expect(run.code).toBe(0);
    expect(run.output).toContain(`Applied ${NAMES.length} migrations`);
    const app = await buildTestApp(
      { APP_MODE: 'production', PUBLIC_ORIGIN: 'https://www.example.com', ...database.env },
      { skipMigrateStep: true },
    );
    await app.close();
  });

  it('leaves a schema newer than the code as it is, with a warning naming what it does not know', async () => {
    database = await emptyTestDatabase();
    expect((await migrate({ APP_MODE: 'demo', ...database.env })).code).toBe(0);
    const newer = '9999-from-a-newer-version';
    const db = await database.open();
    try {
      await sql`insert into kysely_migration (name, timestamp) values (${newer}, ${new Date().toISOString()})`.execute(
        db,
      );
    } finally {
      await db.destroy();
    }
    const run = await migrate({ APP_MODE: 'demo', ...database.env });
    expect(run.code).toBe(0);
    expect(run.output).toContain(newer);
    expect(run.output).toContain(`The schema is already current (${LATEST})`);
    expect(await applied()).toEqual([...NAMES, newer]);
  });

  it('ends a bad setting with the message that names it, and exit code 1', async () => {
    database = await emptyTestDatabase();
    const run = await migrate({ ...database.env, PORT: 'not a port' });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/PORT: /);
  });

  it('ends an unreachable database with the message that names it, and exit code 1', async () => {
    database = await emptyTestDatabase();
    const run = await migrate({
      ...database.env,
      DATABASE_URL: 'postgres://guquan@127.0.0.1:9/guquan',
    });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/127\.0\.0\.1:9/);
  });
});
