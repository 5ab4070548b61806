// A throwaway Redis: Debian's redis-server on loopback and a free port, in memory only (nothing
// saved), as a child of this process. The rate-limit tests and `npm run cluster` both use it
// (types in redis-server.d.mts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

const HOST = '127.0.0.1';

/** A loopback port nothing listens on now: `port` itself, or any free one when 0. */
export function freePort(port = 0) {
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

/**
 * The first free port of a [from, to] range, or any free one when no range is given; never one of
 * `exclude` (ports promised to a process that has not bound them yet).
 */
export async function pickPort(range, exclude = []) {
  if (!range) {
    for (;;) {
      const port = await freePort(0);
      if (!exclude.includes(port)) return port;
    }
  }
  for (let port = range[0]; port <= range[1]; port += 1) {
    if (exclude.includes(port)) continue;
    try {
      return await freePort(port);
    } catch {
      // taken: try the next one
    }
  }
  throw new Error(`no free port in ${range[0]}-${range[1]}`);
}

/** Waits until a child prints `marker` (on stdout), or fails when it exits first. */
function readyWhen(child, marker, what) {
  let output = '';
  return new Promise((resolve, reject) => {
    const onExit = (code, signal) => {
      reject(new Error(`${what} exited (${signal ?? code}) before it was ready:\n${output}`));
    };
    child.once('error', reject);
    child.once('exit', onExit);
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      if (output.includes(marker)) {
        child.off('exit', onExit);
        child.stdout.resume();
        resolve();
      }
    });
  });
}

/** Starts redis-server on 127.0.0.1 (a port of `ports`, or any free one); nothing is persisted. */
export async function startRedis(options = {}) {
  const port = await pickPort(options.ports);
  let child;

  async function start() {
    child = spawn(
      options.command ?? 'redis-server',
      // No RDB snapshots nor append-only file: the counters are worth nothing after a restart.
      ['--bind', HOST, '--port', String(port), '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await readyWhen(child, 'Ready to accept connections', 'redis-server');
  }

  async function stop() {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    running.kill(options.stopSignal ?? 'SIGTERM');
    await once(running, 'exit');
  }

  await start();
  return {
    url: `redis://${HOST}:${port}`,
    port,
    get pid() {
      return child?.pid;
    },
    stop,
    restart: start,
  };
}
