// A production build served on loopback, for the end-to-end tests with settings of their own and
// the benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { migrateBeforeServers } from './built-migrate.ts';
import { sleep } from '../../apps/server/src/timing/sleep.ts';

export interface StartBuiltServerOptions {
  /** The checkout whose build runs (default: the current directory). */
  root?: string;
  port: number;
  /** Its own data directory: the demo data is seeded into it on start. */
  dataDir: string;
  /** Added to the environment (settings under test). */
  env?: Record<string, string>;
  /** Where the server's output goes (default: this process's). */
  output?: 'inherit' | 'ignore';
  /** How long to wait for /health (default 60 s). */
  timeoutMs?: number;
  /** Go to Node before the script (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

/**
 * Starts `apps/server/dist/server.js` of the checkout at `root` on a data directory of its own
 * (seeded with the demo data on start; in production mode, migrated first by the built migrate
 * command), with `env` added to the environment, and resolves once /health answers. The
 * benchmarks and the end-to-end tests that need a server with settings of their own use it.
 * `nodeArgs` go to Node before the script (e.g. `--cpu-prof`).
 */
export async function startBuiltServer({
  root = '.',
  port,
  dataDir,
  env = {},
  output = 'inherit',
  timeoutMs = 180_000,
  nodeArgs = [],
}: StartBuiltServerOptions): Promise<ChildProcess> {
  const serverEnv: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    // The link domain on the same port under another name: no second port to find free.
    LINK_ORIGIN: `http://localhost:${port}`,
    // No operators' listener unless asked for: its demo default port may be taken.
    OPS_PORT: 'off',
    ...env,
  };
  // A production server never migrates on start: the migrate step comes first, as in a
  // deployment. (A demo server migrates itself; an older checkout's may have no migrate command.)
  if (serverEnv.APP_MODE === 'production') await migrateBeforeServers({ root, env: serverEnv });
  const server = spawn(process.execPath, [...nodeArgs, join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: serverEnv,
    stdio: ['ignore', output, output],
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // A server that stopped will not answer: say so at once, not at the deadline.
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(
        `The server exited (${String(server.exitCode ?? server.signalCode)}) before /health answered: run \`npm run build\` first, or see its output.`,
      );
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/anime_merch_web/api/v1/health`);
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  server.kill();
  throw new Error('The server did not start: run `npm run build` first.');
}
