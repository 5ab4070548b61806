import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { startBuiltServer } from '../../../../tests/support/built-server.ts';
import { builtCommand } from './build-paths.ts';

/** The checkout this file belongs to: its build is the one the crash tests run. */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVER = builtCommand('server');

/** Fails with what to do when the server has not been built (`npm run build`). */
export function assertServerBuilt(): void {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
}

/**
 * Starts the built server (`apps/server/dist/server.js`, as `npm start` runs it) in demo mode on
 * `port` and `dataDir`, silent, with `env` added (e.g. a stand-in platform's or the database's),
 * and resolves once /health answers (within startBuiltServer's limit for a start that hangs, which
 * a loaded machine's slow start stays within). Kill it with `killHard`.
 */
export function startDemoServer({
  port,
  dataDir,
  env = {},
}: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<ChildProcess> {
  return startBuiltServer({
    root: ROOT,
    port,
    dataDir,
    output: 'ignore',
    env: { LOG_LEVEL: 'silent', APP_MODE: 'demo', ...env },
  });
}

/** Kills the server with SIGKILL (a crash: nothing runs on the way out) and waits for its exit. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** A session token for a demo user, from the demo server at `origin` (`POST /demo/sessions`). */
export async function demoToken(origin: string, userId: string): Promise<string> {
  const response = await fetch(`${origin}${API_BASE_PATH}/demo/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  return ((await response.json()) as { token: string }).token;
}
