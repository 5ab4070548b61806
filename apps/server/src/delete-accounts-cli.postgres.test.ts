import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequest } from './account-deletion/deletion-requests.ts';
import { DEMO_IDS, type DemoUserKey } from './demo/seed/demo-ids.ts';
import { openTestDatabase, type TestDatabase } from './test-support/test-database.ts';
import { testDatabaseFor } from './test-support/test-engine.ts';

/**
 * `npm run delete-accounts` (the built dist/delete-accounts.js, as the command runs it) while
 * its PostgreSQL connections are cut (pg_terminate_backend): it must stop with a message, having
 * deleted each account whole or not at all, and the next run must finish the rest, none twice.
 */
const CLI = fileURLToPath(new URL('../dist/delete-accounts.js', import.meta.url));
const APPLICATION_NAME = 'delete_accounts_cli_test';
/** Everyone but 乌野排球部后援会, whose open case blocks the deletion. */
const LEAVING: DemoUserKey[] = ['yuyuan', 'satoru', 'chigu', 'conductor', 'beika'];
const LONG_AGO = new Date('2025-01-01T00:00:00.000Z');

let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function runCli(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      resolve({ code, output });
    });
  });
}

async function completedCount(db: TestDatabase['db']): Promise<number> {
  const row = await db
    .selectFrom('account_deletion_requests')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('completed_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('npm run delete-accounts with its database connections cut', () => {
  it('stops with a message, leaves no account half-deleted, and the next run finishes the rest once', async () => {
    expect(existsSync(CLI), 'needs the build: npm run build').toBe(true);
    t = await openTestDatabase();
    const { db, dataDir } = t;
    let withPhones = 0;
    for (const key of LEAVING) {
      const user = await db
        .selectFrom('users')
        .select(['id', 'phone_encrypted'])
        .where('public_id', '=', DEMO_IDS.users[key])
        .executeTakeFirstOrThrow();
      await createRequest(db, user.id, LONG_AGO);
      if (user.phone_encrypted !== null) withPhones += 1;
    }
    expect(withPhones).toBeGreaterThan(0);
    // Each account's anonymizing update takes a second, so the run is cut in the middle.
    await sql
      .raw(
        `create function slow_down() returns trigger language plpgsql as $$ begin perform pg_sleep(1); return new; end $$;
         create trigger slow_down before update of deleted_at on users for each row execute function slow_down()`,
      )
      .execute(db);
    const config = await testDatabaseFor(dataDir);
    if (config.engine !== 'postgres') throw new Error('a PostgreSQL test');
    const url = new URL(config.url);
    url.searchParams.set('application_name', APPLICATION_NAME);
    const env = { DATA_DIR: dataDir, DATABASE_URL: url.href, LOG_LEVEL: 'silent' };

    const first = runCli(env);
    await expect.poll(() => completedCount(db), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    // Every connection of the command: the job's lock and the one deleting the next account.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${APPLICATION_NAME}`.execute(
      db,
    );
    const cut = await first;
    expect(cut.output).toContain(
      'Account deletion stopped: the connection to the database was lost',
    );
    expect(cut.output).not.toMatch(/Connection terminated|at .*node_modules/);
    expect(cut.code).toBe(1);
    const doneBeforeCut = await completedCount(db);
    expect(doneBeforeCut).toBeLessThan(LEAVING.length);
    // No account half-deleted: each one is either anonymized with its request completed, or
    // untouched with its request open.
    const users = await db
      .selectFrom('users')
      .innerJoin('account_deletion_requests', 'account_deletion_requests.user_id', 'users.id')
      .select(['users.deleted_at', 'users.nickname', 'account_deletion_requests.completed_at'])
      .execute();
    for (const user of users) {
      expect(user.deleted_at === null).toBe(user.completed_at === null);
    }

    await sql.raw('drop trigger slow_down on users; drop function slow_down()').execute(db);
    const again = await runCli(env);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain(`Account deletion: ${LEAVING.length - doneBeforeCut} deleted`);
    expect(await completedCount(db)).toBe(LEAVING.length);
    // One deletion notice per deleted user with a phone number: nobody's deletion ran twice.
    const notices = await db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('channel', '=', 'text')
      .executeTakeFirstOrThrow();
    expect(Number(notices.n)).toBe(withPhones);
  }, 90_000);
});
