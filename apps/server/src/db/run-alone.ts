import { sql } from 'kysely';
import type { Db } from './database.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';

/** The advisory-lock keys of the jobs that run on one server at a time (any fixed bigints). */
export const JOB_LOCKS = {
  /** The hourly account deletion job (account-deletion/deletion-job.ts, scheduled in account-deletion-plugin.ts). */
  accountDeletion: 7_402_113_001,
} as const;

export type JobLock = (typeof JOB_LOCKS)[keyof typeof JOB_LOCKS];

export type RunAloneResult<T> = { ran: true; value: T } | { ran: false };

/** What a job run alone is given. */
export interface RunAloneContext {
  /**
   * Resolves while this run still holds its lock; rejects with JobLockLostError once the lock's
   * connection is gone (PostgreSQL restarted, the backend was terminated). A job calls it between
   * units of work (each account) and so stops at a clean boundary, leaving the rest to its next
   * run, instead of going on while another server may have taken the job.
   */
  checkpoint: () => Promise<void>;
}

/** The connection holding the job's lock broke: the run stopped; the next one resumes. */
export class JobLockLostError extends Error {
  override name = 'JobLockLostError';
}

/** A run stopped by the database going away (not a bug): the next run takes up what is left. */
export function isJobInterruption(error: unknown): boolean {
  return error instanceof JobLockLostError || isDatabaseUnavailable(error);
}

/**
 * Runs `job` unless another server (or `npm run delete-accounts`) is running it now: on
 * PostgreSQL, a session advisory lock taken with pg_try_advisory_lock on a connection held for the
 * job's length and released after it (also when the connection breaks: PostgreSQL drops a
 * session's locks with it). Whoever finds the lock taken skips this run instead of waiting; the
 * next tick comes soon enough. On SQLite the database is one process's, so the job just runs.
 *
 * The lock keeps servers from doing the same work at once; correctness does not rest on it: the
 * job re-checks each request in its own transaction, so two runs at once are still safe.
 *
 * The lock's connection is held, idle, for the whole job: when it is cut, its client's 'error' is
 * heard by the pool's listener (database.ts) and the job learns it at its next checkpoint.
 */
export async function runAlone<T>(
  db: Db,
  engine: 'sqlite' | 'postgres',
  lock: JobLock,
  job: (context: RunAloneContext) => Promise<T>,
): Promise<RunAloneResult<T>> {
  if (engine === 'sqlite') {
    return { ran: true, value: await job({ checkpoint: () => Promise.resolve() }) };
  }
  return db.connection().execute(async (connection) => {
    const taken = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${lock}) as locked`
      .execute(connection)
      .then((result) => result.rows[0]?.locked === true);
    if (!taken) return { ran: false };
    const checkpoint = async () => {
      // A statement on the lock's own connection: it fails once that connection is gone.
      await sql`select 1`.execute(connection).catch((error: unknown) => {
        throw new JobLockLostError(
          'The connection holding the job lock was lost; the job stopped and resumes next run',
          { cause: error },
        );
      });
    };
    try {
      return { ran: true, value: await job({ checkpoint }) };
    } finally {
      // A broken connection has dropped the lock already; nothing else to release.
      await sql`select pg_advisory_unlock(${lock})`.execute(connection).catch(() => undefined);
    }
  });
}
