// A throwaway PostgreSQL server: a fresh data directory under a temp dir, started with Debian's
// binaries (`postgresql` package), stopped and removed at the end. The server tests' vitest
// global set-up and `npm run cluster` both start their PostgreSQL with it. PostgreSQL refuses to
// run as root: as root, every command runs as the `postgres` user the Debian package creates, on a
// directory it owns.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const HOST = '127.0.0.1';

/** A throwaway PostgreSQL server. */
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

/** The newest `/usr/lib/postgresql/<major>/bin` (Debian's layout), or PG_BIN_DIR; throws when none. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) {
    throw new Error(
      'PostgreSQL is not installed: no /usr/lib/postgresql/<version>/bin/initdb (apt-get install postgresql, or set PG_BIN_DIR)',
    );
  }
  return join(root, majors[0] ?? '', 'bin');
}

const asRoot = () => process.getuid?.() === 0;

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
async function runPostgresTool(
  tool: string,
  args: string[],
): Promise<{ stdout: string; stderr: string }> {
  const file = join(postgresBinDir(), tool);
  try {
    if (asRoot()) {
      const command = [file, ...args].map(shellQuote).join(' ');
      return await run('su', ['postgres', '-s', '/bin/sh', '-c', command]);
    }
    return await run(file, args);
  } catch (error) {
    const stderr: unknown =
      error && typeof error === 'object' && 'stderr' in error ? error.stderr : '';
    throw new Error(`${tool} failed: ${String(stderr).trim() || String(error)}`, { cause: error });
  }
}

/** A loopback port nothing listens on right now: `port` itself, or any free one when 0. */
export function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: HOST, port, exclusive: true }, () => {
      const address = server.address();
      server.close(() => {
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  });
}

/** The first free port of `ports` (a number, a [from, to] range, or 0 for any). */
export async function pickPort(ports?: number | [number, number]): Promise<number> {
  if (Array.isArray(ports)) {
    for (let port = ports[0]; port <= ports[1]; port += 1) {
      try {
        return await freePort(port);
      } catch {
        // taken: try the next one
      }
    }
    throw new Error(`no free port in ${ports[0]}-${ports[1]} for PostgreSQL`);
  }
  return freePort(ports ?? 0);
}

/** Settings that trade durability for speed: a throwaway server loses nothing worth keeping. */
const FAST_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
};

/**
 * Starts a fresh PostgreSQL server on 127.0.0.1 and a free port, with `user` as its superuser and
 * an empty database `database`. Password authentication when `password` is given, else trust
 * (loopback only either way). Stop it with `stop()`; it is also killed when this process exits.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const {
    ports = 0,
    user = 'guquan',
    password,
    database = 'guquan',
    durable = false,
    settings = {},
  } = options;
  const dir = await mkdtemp(join(options.parentDir ?? tmpdir(), 'guquan-postgres-'));
  const dataDir = join(dir, 'data');
  const socketDir = join(dir, 'socket');
  const logFile = join(dir, 'postgres.log');
  await mkdir(socketDir);
  const initdbArgs = ['-D', dataDir, '-U', user, '-E', 'UTF8', '--no-locale', '--no-sync'];
  if (password !== undefined) {
    await writeFile(join(dir, 'pwfile'), `${password}\n`, { mode: 0o600 });
    initdbArgs.push('--pwfile', join(dir, 'pwfile'), '--auth', 'scram-sha-256');
  } else {
    initdbArgs.push('--auth', 'trust');
  }
  if (asRoot()) await run('chown', ['-R', 'postgres:postgres', dir]);

  let stopped = false;
  let pid: number | undefined;
  const killOnExit = () => {
    if (pid !== undefined && !stopped) {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
  };
  try {
    await runPostgresTool('initdb', initdbArgs);
    if (password !== undefined) await rm(join(dir, 'pwfile'));
    const all = {
      listen_addresses: HOST,
      unix_socket_directories: socketDir,
      max_connections: '200',
      ...(durable ? {} : FAST_SETTINGS),
      ...settings,
    };
    let port: number;
    for (let attempt = 1; ; attempt += 1) {
      port = await pickPort(ports);
      const serverOptions = [
        ['-p', String(port)],
        ...Object.entries(all).map(([k, v]) => ['-c', `${k}=${v}`]),
      ]
        .flat()
        .map(shellQuote)
        .join(' ');
      try {
        await runPostgresTool('pg_ctl', [
          '-D',
          dataDir,
          '-l',
          logFile,
          '-w',
          '-t',
          '60',
          '-o',
          serverOptions,
          'start',
        ]);
        break;
      } catch (error) {
        // Another process took the port between the check and the start: try another one.
        if (attempt >= 3 || (typeof ports === 'number' && ports !== 0))
          throw withLog(error, logFile);
      }
    }
    pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.once('exit', killOnExit);

    const urlFor = (name = database): string => {
      const url = new URL(`postgres://${HOST}:${port}/${name}`);
      url.username = user;
      if (password !== undefined) url.password = password;
      return url.href;
    };
    const admin = new pg.Client({ connectionString: urlFor('postgres') });
    await admin.connect();
    try {
      await admin.query(`create database "${database}"`);
    } finally {
      await admin.end();
    }

    return {
      host: HOST,
      port,
      user,
      database,
      dir,
      logFile,
      pid,
      url: urlFor,
      async stop() {
        if (stopped) return;
        await runPostgresTool('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => {
          killOnExit();
        });
        stopped = true;
        process.removeListener('exit', killOnExit);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    killOnExit();
    stopped = true;
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function withLog(error: unknown, logFile: string): Error {
  const log = existsSync(logFile)
    ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-10)
    : [];
  return new Error([String(error instanceof Error ? error.message : error), ...log].join('\n'), {
    cause: error,
  });
}

/**
 * Creates database `name` (from `template` when given) on the server `adminUrl` points at, and
 * returns a function that drops it again (closing whatever is still connected).
 */
export async function createDatabase(
  adminUrl: string,
  name: string,
  { template }: { template?: string } = {},
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  if (template !== undefined && !/^[a-z_][a-z0-9_]*$/.test(template)) {
    throw new Error(`not a plain database name: ${template}`);
  }
  const query = async (text: string): Promise<void> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  return () => query(`drop database if exists "${name}" with (force)`);
}
