import { afterEach, describe, expect, it, vi } from 'vitest';
import { runDataCommand } from './data-command.ts';
import type { Db } from './db/database.ts';
import { emptyTestDatabase } from './test-support/empty-database.ts';
import { makeTempDataDir, TEST_PRODUCTION_ENV } from './test-support/test-app.ts';
import { dropTestDatabase, testDatabaseEnv } from './test-support/test-engine.ts';

/** `npm run seed` and `npm run delete-accounts` begin and end here. */
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  vi.restoreAllMocks();
});

/**
 * Runs a data command that must not run: asserts it was not called and the process exited 1, and
 * gives the message printed.
 */
async function refusal(): Promise<string> {
  const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const command = vi.fn(() => Promise.resolve());
  await runDataCommand(import.meta.url, command);
  expect(command).not.toHaveBeenCalled();
  expect(exit).toHaveBeenCalledWith(1);
  return String(error.mock.calls[0]?.[0]);
}

describe('runDataCommand', () => {
  it("runs the command on the server's data, migrated, and closes it after", async () => {
    const temp = await makeTempDataDir();
    try {
      Object.assign(process.env, { DATA_DIR: temp.dataDir }, await testDatabaseEnv(temp.dataDir));
      let users = -1;
      let database: Db | undefined;
      await runDataCommand(import.meta.url, async ({ db, config }) => {
        expect(config.dataDir).toBe(temp.dataDir);
        users = (await db.selectFrom('users').select('id').execute()).length;
        database = db;
      });
      expect(users).toBe(0);
      // Closed after the command: a query on it fails.
      await expect(database?.selectFrom('users').select('id').execute()).rejects.toThrow();
    } finally {
      await dropTestDatabase(temp.dataDir);
      await temp.remove();
    }
  });

  it('ends a bad setting with the message that names it, and exit code 1', async () => {
    process.env.PORT = 'not a port';
    expect(await refusal()).toMatch(/PORT: /);
  });

  it('in production, refuses a database behind the code instead of migrating it', async () => {
    const database = await emptyTestDatabase();
    try {
      Object.assign(process.env, {
        ...TEST_PRODUCTION_ENV,
        ...database.env,
      });
      expect(await refusal()).toMatch(/lacks migrations 0001-.*npm run migrate/);
      const db = await database.open();
      try {
        expect(await db.introspection.getTables({ withInternalKyselyTables: true })).toEqual([]);
      } finally {
        await db.destroy();
      }
    } finally {
      await database.remove();
    }
  });
});
