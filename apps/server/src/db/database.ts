import Sqlite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, sql, type LogEvent } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { describeDatabaseUrl, type DatabaseConfig } from '../config/database-config.ts';
import type { Database } from './schema.ts';
import { checkpointsOffThread } from './sqlite-checkpoints.ts';
import { SqliteReadWriteDialect } from './sqlite-read-write.ts';

export type Db = Kysely<Database>;

/**
 * Opens (creating if needed) the SQLite database. WAL lets pages be read while a write goes on;
 * foreign keys are off in SQLite unless asked for; the busy timeout rides out a seed running
 * beside the server instead of failing at once; secure_delete overwrites what is deleted (a
 * deleted account, an old plain phone number) instead of leaving it in free pages of the file.
 * A second connection, which only reads, answers the SELECTs made outside a transaction, so that
 * they never wait for one (sqlite-read-write.ts); a third, on a thread of its own, checkpoints
 * the WAL, so that no commit does it on the server's thread (sqlite-checkpoints.ts).
 */
export function openSqliteDatabase(file: string, hooks: DatabaseHooks = {}): Db {
  mkdirSync(dirname(file), { recursive: true });
  const writer = new Sqlite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  writer.pragma('secure_delete = ON');
  const reader = new Sqlite(file);
  reader.pragma('query_only = ON');
  reader.pragma('busy_timeout = 5000');
  const checkpoints = checkpointsOffThread(writer, file);
  return new Kysely<Database>({
    dialect: new SqliteReadWriteDialect({ writer, reader, checkpoints }),
    log: queryErrorLog(hooks),
  });
}

/** What the server watches of its database (the metrics): failed queries, the pool's counts. */
export interface DatabaseHooks {
  /**
   * A connection broke (PostgreSQL restarted, a backend was terminated, the network dropped),
   * idle in the pool or held by a request or job: the pool replaces it.
   */
  onConnectionError?: (error: Error) => void;
  /** A query failed (any reason). */
  onQueryError?: () => void;
  /** The PostgreSQL pool, once open (its total, idle and waiting counts). */
  onPool?: (pool: pg.Pool, size: number) => void;
}

function queryErrorLog({ onQueryError }: DatabaseHooks) {
  return onQueryError
    ? (event: LogEvent) => {
        if (event.level === 'error') onQueryError();
      }
    : undefined;
}

/** The database could not be reached at start-up: the message names DATABASE_URL's target. */
export class DatabaseConnectionError extends Error {
  override name = 'DatabaseConnectionError';
}

/** How long a new connection may take before the attempt counts as failed. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * `count(*)` and `sum()` are bigint (int8) in PostgreSQL, which `pg` hands over as text; SQLite
 * gives numbers. Read as numbers here so both engines answer alike: every int8 this server sees
 * is a count or a sum of integer columns, far below 2^53.
 */
const numericInt8: pg.CustomTypesConfig = {
  getTypeParser: (oid, format): unknown =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : // pg's own parser for every other type (typed `any` by @types/pg).
        (pg.types.getTypeParser(oid, format) as unknown),
};

export interface PostgresOptions extends DatabaseHooks {
  url: string;
  poolSize: number;
}

/**
 * A pool of PostgreSQL connections, checked once before anything else uses it: a wrong or
 * unreachable DATABASE_URL stops the start with a message naming where it points (never its
 * password) instead of failing on the first request.
 */
export async function openPostgresDatabase(options: PostgresOptions): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types: numericInt8,
  });
  // A connection that breaks emits 'error' on its client, and an 'error' nobody listens to ends
  // the process. The pool listens on idle clients only (and re-emits it here); a client checked
  // out by a transaction or a job's lock between two statements has no listener of its own, so
  // every client gets one when it connects. Whoever uses the broken client gets the error from
  // its next statement (a 503: database-unavailable.ts), and the pool drops it on release.
  const reported = new WeakSet<Error>();
  const report = (error: Error) => {
    // One cut reaches both listeners when the client was idle: tell it once.
    if (reported.has(error)) return;
    reported.add(error);
    options.onConnectionError?.(error);
  };
  pool.on('connect', (client) => {
    client.on('error', report);
  });
  pool.on('error', report);
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseConnectionError(
      `DATABASE_URL: cannot connect to PostgreSQL at ${describeDatabaseUrl(options.url)}: ${withoutPassword(reason, options.url)}`,
      { cause: error },
    );
  }
  options.onPool?.(pool, options.poolSize);
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: queryErrorLog(options),
  });
}

/** A driver message never quotes the password, but a message must never leak it either. */
function withoutPassword(message: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // an unreadable URL has no password to hide
  }
  return password ? message.replaceAll(password, '***') : message;
}

/** The database the configuration names: SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL. */
export async function openDatabase(config: DatabaseConfig, hooks: DatabaseHooks = {}): Promise<Db> {
  return config.engine === 'sqlite'
    ? openSqliteDatabase(config.file, hooks)
    : openPostgresDatabase({ url: config.url, poolSize: config.poolSize, ...hooks });
}

/** Which engine a database (or a transaction on it) runs on: what openDatabase chose. */
/** Whether the database answers a query now (the operators' readiness). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export function isPostgres<T>(db: Kysely<T>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
