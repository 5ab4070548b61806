import { execFile, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { TEST_PRODUCTION_ENV } from '../../apps/server/src/test-support/production-env.ts';
import { sleep } from '../../apps/server/src/timing/sleep.ts';

export { sleep };

/**
 * What the image's tests share: podman with the project's settings, the image run as an operator
 * runs it (host network, read-only root, /tmp a tmpfs), free ports, and the production settings.
 */
export const ROOT = join(import.meta.dirname, '../..');
export const IMAGE = 'localhost/guquan-web:latest';
export const API = '/anime_merch_web/api/v1';
/** The image's own user, which a data volume must let write. */
const IMAGE_UID = 1000;
export const podmanEnv = {
  ...process.env,
  CONTAINERS_CONF: join(ROOT, 'deploy/podman/containers.conf'),
};

export interface PodmanRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function podman(args: string[], timeout = 120_000): PodmanRun {
  const run = spawnSync('podman', args, { env: podmanEnv, encoding: 'utf8', timeout });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout.trim(), stderr: run.stderr.trim() };
}

/** podman without blocking this process: what the test does meanwhile (a load) goes on. */
export function podmanInBackground(args: string[], timeout = 120_000): Promise<PodmanRun> {
  return new Promise((resolve) => {
    execFile(
      'podman',
      args,
      { env: podmanEnv, encoding: 'utf8', timeout },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ status, stdout: stdout.trim(), stderr: stderr.trim() });
      },
    );
  });
}

/** How every test runs the image: on the host's network, with a read-only root and a tmpfs /tmp. */
const RUN_AS_OPERATORS_DO = ['--network', 'host', '--read-only', '--tmpfs', '/tmp'];

/** `podman run --rm` of the image with `options`, then `command` (the image's CMD when none). */
export function runImage(options: string[], command: string[] = []): PodmanRun {
  return podman(['run', '--rm', ...RUN_AS_OPERATORS_DO, ...options, IMAGE, ...command]);
}

/** `podman run -d --name NAME` of the image (its default command): a server left running. */
export function startContainer(name: string, options: string[]): PodmanRun {
  return podman(['run', '-d', '--name', name, ...RUN_AS_OPERATORS_DO, ...options, IMAGE]);
}

/** `-e NAME=VALUE` for each setting. */
export function envOptions(settings: Record<string, string>): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

/** PORT and OPS_PORT, with PORT + 1 (demo mode's link domain) free too. */
export async function freePorts(): Promise<{ port: number; opsPort: number }> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 20_000) * 2;
    if ((await portFree(port)) && (await portFree(port + 1)) && (await portFree(port + 2))) {
      return { port, opsPort: port + 2 };
    }
  }
  throw new Error('no free ports');
}

/** Asks `url` until it answers 200 (a limit for a server that never comes up, not a speed). */
export async function waitFor(url: string, ms: number): Promise<Response> {
  const deadline = Date.now() + ms;
  let last = 'nothing';
  while (Date.now() < deadline) {
    try {
      const answer = await fetch(url);
      if (answer.ok) return answer;
      last = `status ${answer.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer 200 within ${ms} ms (last: ${last})`);
}

/** A folder under `parent` the image's user may write to: a data volume. */
export function dataVolume(parent: string, name: string): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  chownSync(dir, IMAGE_UID, IMAGE_UID);
  return dir;
}

/**
 * Every setting production refuses to start without: the server tests' (production-env.ts), the
 * App Store's test root as the image holds it, without APP_MODE (production is the image's
 * default). The platform's URLs lead nowhere unless a test gives its own.
 */
export function productionSettings(): Record<string, string> {
  return {
    ...Object.fromEntries(
      Object.entries(TEST_PRODUCTION_ENV).filter(([setting]) => setting !== 'APP_MODE'),
    ),
    // The StoreKit test chain where the image holds it (the only sources it keeps).
    APPLE_ROOT_CERTS_DIR: '/app/apps/server/src/demo/test-chain',
  };
}
