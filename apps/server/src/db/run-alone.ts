import { sql } from 'kysely';
import type { Db } from './database.ts';

/** The advisory-lock keys of the jobs that run on one server at a time (any fixed bigints). */
export const JOB_LOCKS = {
  /** The hourly account deletion job (account-deletion/deletion-job.ts, scheduled in app.ts). */
  accountDeletion: 7_402_113_001,
} as const;

export type JobLock = (typeof JOB_LOCKS)[keyof typeof JOB_LOCKS];

export type RunAloneResult<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `job` unless another server (or `npm run delete-accounts`) is running it now: on
 * PostgreSQL, a session advisory lock taken with pg_try_advisory_lock on a connection held for the
 * job's length and released after it (also when the connection breaks: PostgreSQL drops a
 * session's locks with it). Whoever finds the lock taken skips this run instead of waiting; the
 * next tick comes soon enough. On SQLite the database is one process's, so the job just runs.
 *
 * The lock keeps servers from doing the same work at once; correctness does not rest on it: the
 * job re-checks each request in its own transaction, so two runs at once are still safe.
 */
export async function runAlone<T>(
  db: Db,
  engine: 'sqlite' | 'postgres',
  lock: JobLock,
  job: () => Promise<T>,
): Promise<RunAloneResult<T>> {
  if (engine === 'sqlite') return { ran: true, value: await job() };
  return db.connection().execute(async (connection) => {
    const taken = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${lock}) as locked`
      .execute(connection)
      .then((result) => result.rows[0]?.locked === true);
    if (!taken) return { ran: false };
    try {
      return { ran: true, value: await job() };
    } finally {
      // A broken connection has dropped the lock already; nothing else to release.
      await sql`select pg_advisory_unlock(${lock})`.execute(connection).catch(() => undefined);
    }
  });
}
