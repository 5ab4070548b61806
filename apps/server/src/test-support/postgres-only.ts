import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase } from '../../../../tests/support/postgres-server.ts';
import { openPostgresDatabase, type Db } from '../db/database.ts';

/**
 * For the PostgreSQL-only tests (`*.postgres.test.ts`, project server-postgres): an empty database
 * of the tests' server, not even migrated, with a connection pool of `poolSize`.
 */
export async function emptyPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const { adminUrl } = inject('postgres');
  const name = `empty_${randomBytes(6).toString('hex')}`;
  const drop = await createDatabase(adminUrl, name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop };
}

/** Opens `url` with a pool of `poolSize` connections. */
export function openPool(url: string, poolSize = 1): Promise<Db> {
  return openPostgresDatabase({ url, poolSize });
}
