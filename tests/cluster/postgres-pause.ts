import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { postgresBinDir, type PostgresServer } from '../support/postgres-server.ts';

const run = promisify(execFile);

/** Runs pg_ctl as the `postgres` user (PostgreSQL refuses root) or as ourselves. */
async function pgCtl(args: string[]): Promise<void> {
  const command = [join(postgresBinDir(), 'pg_ctl'), ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(' ');
  if (process.getuid?.() === 0) await run('su', ['postgres', '-s', '/bin/sh', '-c', command]);
  else await run('/bin/sh', ['-c', command]);
}

/**
 * Stops a throwaway PostgreSQL (fast: open connections are cut, as in a crash of the database
 * host) and returns a function that starts it again on the same data, port and settings.
 */
export async function stopPostgresForAWhile(server: PostgresServer): Promise<() => Promise<void>> {
  const dataDir = join(server.dir, 'data');
  // The command line it was started with: `postgres "-D" "…" "-p" "…" "-c" "…"`.
  const options = (await readFile(join(dataDir, 'postmaster.opts'), 'utf8'))
    .trim()
    .replace(/^\S+\s*/, '');
  await pgCtl(['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  return () => pgCtl(['-D', dataDir, '-l', server.logFile, '-w', '-o', options, 'start']);
}
