import { afterEach, describe, expect, it, vi } from 'vitest';
import { runDataCommand } from './data-command.ts';
import type { Db } from './db/database.ts';
import { makeTempDataDir } from './test-support/test-app.ts';
import { dropTestDatabase, testDatabaseEnv } from './test-support/test-engine.ts';

/** `npm run seed` and `npm run delete-accounts` begin and end here. */
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  vi.restoreAllMocks();
});

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
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const command = vi.fn(() => Promise.resolve());
    await runDataCommand(import.meta.url, command);
    expect(command).not.toHaveBeenCalled();
    expect(exit).toHaveBeenCalledWith(1);
    expect(String(error.mock.calls[0]?.[0])).toMatch(/PORT: /);
  });
});
