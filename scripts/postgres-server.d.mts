/** A throwaway PostgreSQL server (postgres-server.mjs). */
export interface PostgresServer {
  host: string;
  port: number;
  /** Its superuser. */
  user: string;
  /** The empty database made at start. */
  database: string;
  /** The temp dir holding the data directory, the socket and `postgres.log`; removed by stop(). */
  dir: string;
  logFile: string;
  /** The postmaster's process id. */
  pid: number;
  /** A postgres:// URL for a database of this server (its own database by default). */
  url: (database?: string) => string;
  /** Stops the server and removes its directory. */
  stop: () => Promise<void>;
}

export interface StartPostgresOptions {
  /** A port, a [from, to] range to take the first free one of, or 0 (default) for any free one. */
  ports?: number | [number, number];
  /** The superuser (default `guquan`). */
  user?: string;
  /** Password authentication (scram-sha-256) with this password; trust when not given. */
  password?: string;
  /** The database made at start (default `guquan`). */
  database?: string;
  /** Keep fsync and synchronous commits on (default false: a test server trades them for speed). */
  durable?: boolean;
  /** More `-c name=value` server settings. */
  settings?: Record<string, string>;
  /** Where the temp dir is made (default the system's temp dir). */
  parentDir?: string;
}

/** The newest Debian `/usr/lib/postgresql/<major>/bin`, or PG_BIN_DIR; throws when none. */
export function postgresBinDir(): string;

export function startPostgres(options?: StartPostgresOptions): Promise<PostgresServer>;

/** Creates a database (from `template`); the returned function drops it (WITH (FORCE)). */
export function createDatabase(
  adminUrl: string,
  name: string,
  options?: { template?: string },
): Promise<() => Promise<void>>;

/** A loopback port nothing listens on right now: `port` itself, or any free one when 0. */
export function freePort(port?: number): Promise<number>;

/** The first free port of `ports` (a number, a [from, to] range, or 0 for any). */
export function pickPort(ports?: number | [number, number]): Promise<number>;
