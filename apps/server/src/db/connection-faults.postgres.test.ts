import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, openPool } from '../test-support/postgres-only.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import type { Db } from './database.ts';
import { JOB_LOCKS, JobLockLostError, runAlone } from './run-alone.ts';
import { sleep } from '../timing/sleep.ts';

/**
 * A PostgreSQL connection cut under a server (pg_terminate_backend, as a database restart, a
 * failover or an operator does): node-postgres emits 'error' on the client, and a client held
 * outside a query (a transaction between two statements, the deletion job's lock) has nobody
 * listening unless the pool gave it a listener: an unhandled 'error' ends the process (STACK.md).
 */
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function database(): Promise<{ db: Db; admin: Db }> {
  const { url, drop } = await emptyPostgresDatabase();
  cleanup.push(drop);
  const db = await openPool(url, 3);
  const admin = await openPool(url, 1);
  cleanup.push(async () => {
    await db.destroy();
    await admin.destroy();
  });
  return { db, admin };
}

async function backendPid(connection: Db): Promise<number> {
  const result = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
  return result.rows[0]?.pid ?? 0;
}

async function terminate(admin: Db, pid: number): Promise<void> {
  await sql`select pg_terminate_backend(${pid})`.execute(admin);
}

describe('a PostgreSQL connection cut while a client holds it', () => {
  it('fails the transaction as "database unavailable", ends no process, and the pool recovers', async () => {
    const { db, admin } = await database();
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        await terminate(admin, await backendPid(trx));
        // The cut arrives while no statement of this client runs: the client's own 'error'.
        await sleep(300);
        await sql`select 1`.execute(trx);
      })
      .then(
        () => 'committed',
        (error: unknown) => error,
      );
    expect(isDatabaseUnavailable(outcome), String(outcome)).toBe(true);
    // The broken client left the pool; the next query gets a new connection.
    const one = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(one.rows).toEqual([{ one: 1 }]);
  });

  it("stops a job whose lock connection is cut at the job's next checkpoint; the next run runs", async () => {
    const { db, admin } = await database();
    let steps = 0;
    const run = runAlone(db, 'postgres', JOB_LOCKS.accountDeletion, async ({ checkpoint }) => {
      for (;;) {
        await checkpoint();
        steps += 1;
        await sleep(50);
      }
    });
    await expect.poll(() => steps).toBeGreaterThan(2);
    const holder = await sql<{ pid: number }>`
      select pid from pg_locks
      where locktype = 'advisory' and ((classid::bigint << 32) | objid::bigint) = ${JOB_LOCKS.accountDeletion}`.execute(
      admin,
    );
    expect(holder.rows).toHaveLength(1);
    await terminate(admin, holder.rows[0]?.pid ?? 0);
    await expect(run).rejects.toBeInstanceOf(JobLockLostError);
    const stoppedAt = steps;
    await sleep(200);
    expect(steps).toBe(stoppedAt);
    expect(
      await runAlone(db, 'postgres', JOB_LOCKS.accountDeletion, () => Promise.resolve('again')),
    ).toEqual({ ran: true, value: 'again' });
  });
});
