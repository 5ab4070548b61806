import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuiltMigrate } from '../../../tests/support/built-migrate.ts';
import { phoneProtection } from './crypto/phone-protection.ts';
import { migrations } from './db/migrations.ts';
import { emptyTestDatabase, type EmptyTestDatabase } from './test-support/empty-database.ts';
import { TEST_PHONE_KEYS } from './test-support/test-phone-keys.ts';

/**
 * Two `npm run migrate` at once on one PostgreSQL (two rollouts, or a Job retried while the first
 * still runs): Kysely's advisory lock lets one apply the migrations while the other waits, then
 * finds nothing to do. Both succeed; each migration is applied once.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../dist/migrate.js', import.meta.url));
const NAMES = Object.keys(migrations({ phones: phoneProtection(TEST_PHONE_KEYS) }));

let database: EmptyTestDatabase | undefined;
afterEach(async () => {
  await database?.remove();
  database = undefined;
});

/** The migration names a run's line says it applied (none for "already current"). */
function appliedBy(output: string): string[] {
  const match = /^Applied \d+ migrations?: (.*); the schema is current/m.exec(output);
  return match?.[1]?.split(', ') ?? [];
}

describe('two npm run migrate at once', () => {
  it('both exit 0, and each migration is applied once', async () => {
    expect(existsSync(CLI), 'needs the build: npm run build').toBe(true);
    database = await emptyTestDatabase();
    const env = { APP_MODE: 'demo', LOG_LEVEL: 'silent', ...database.env };
    const runs = await Promise.all([
      runBuiltMigrate({ root: ROOT, env }),
      runBuiltMigrate({ root: ROOT, env }),
    ]);
    for (const run of runs) expect(run, run.output).toMatchObject({ code: 0 });
    // Between them, every migration applied by exactly one of the two.
    expect(runs.flatMap((run) => appliedBy(run.output)).sort()).toEqual(NAMES);
    const db = await database.open();
    try {
      const rows = await sql<{
        name: string;
      }>`select name from kysely_migration order by name`.execute(db);
      expect(rows.rows.map((row) => row.name)).toEqual(NAMES);
    } finally {
      await db.destroy();
    }
  });
});
