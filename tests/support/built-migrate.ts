// The built migrate command (`npm run migrate`), run as a deployment runs it before its servers:
// once, with the servers' environment, to the end.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface MigrateRun {
  /** The exit code (null when a signal ended it). */
  code: number | null;
  /** What it wrote to stdout and stderr, in order. */
  output: string;
}

/** Runs `apps/server/dist/migrate.js` of the checkout at `root` with `env` (added to this one's). */
export async function runBuiltMigrate({
  root = '.',
  env = {},
}: {
  root?: string;
  env?: Record<string, string | undefined>;
}): Promise<MigrateRun> {
  const child = spawn(process.execPath, [join(root, 'apps/server/dist/migrate.js')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  return { code, output };
}

/** Runs the built migrate command and fails with its output unless it exits 0. */
export async function migrateBeforeServers(options: {
  root?: string;
  env?: Record<string, string | undefined>;
}): Promise<string> {
  const run = await runBuiltMigrate(options);
  if (run.code !== 0) {
    throw new Error(`The migrate step failed (exit ${run.code}): ${run.output.trim()}`);
  }
  return run.output;
}
