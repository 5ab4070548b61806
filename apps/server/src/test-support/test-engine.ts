import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from '../../../../tests/support/postgres-server.ts';
import { dataPaths } from '../config/data-paths.ts';
import type { DatabaseConfig } from '../config/database-config.ts';
import { openDatabase, type Db } from '../db/database.ts';

/**
 * Which engine the server tests run on: SQLite (project `server`) or PostgreSQL (project
 * `server-postgres`, whose global set-up starts a throwaway server: postgres-global-setup.ts).
 * A test's data directory stands for all its data, as DATA_DIR and DATABASE_URL do for a server:
 * on PostgreSQL it comes with a fresh database of its own, made from the migrated template.
 */
export type TestEngine = 'sqlite' | 'postgres';

export const TEST_ENGINE: TestEngine =
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** Connections each test server keeps at most: enough for parallel requests to really overlap. */
export const TEST_POOL_SIZE = 4;

const databases = new Map<string, { url: string; drop: () => Promise<void> }>();

function urlOf(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.href;
}

/** The database that goes with a test data directory, made on first use. */
export async function testDatabaseFor(dataDir: string): Promise<DatabaseConfig> {
  if (TEST_ENGINE === 'sqlite') return { engine: 'sqlite', file: dataPaths(dataDir).database };
  let database = databases.get(dataDir);
  if (!database) {
    const { adminUrl, template } = inject('postgres');
    const name = `test_${randomBytes(6).toString('hex')}`;
    const drop = await createDatabase(adminUrl, name, { template });
    database = { url: urlOf(adminUrl, name), drop };
    databases.set(dataDir, database);
  }
  return { engine: 'postgres', url: database.url, poolSize: TEST_POOL_SIZE };
}

/** The environment that points a server at a data directory's database (none for SQLite). */
export async function testDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  const config = await testDatabaseFor(dataDir);
  return config.engine === 'postgres'
    ? { DATABASE_URL: config.url, DATABASE_POOL_SIZE: String(config.poolSize) }
    : {};
}

/** Drops a data directory's PostgreSQL database, if it has one. */
export async function dropTestDatabase(dataDir: string): Promise<void> {
  const database = databases.get(dataDir);
  databases.delete(dataDir);
  await database?.drop();
}

/** Another connection to a data directory's database (to look at what a server wrote). */
export async function openTestDataDirDatabase(dataDir: string): Promise<Db> {
  return openDatabase(await testDatabaseFor(dataDir));
}
