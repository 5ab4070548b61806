// A throwaway Redis: Debian's redis-server on loopback and a free port, in memory only (nothing
// saved), as a child of this process. The rate-limit tests and `npm run cluster` both use it
// (types in redis-server.d.mts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort, pickPort } from './postgres-server.mjs';

const HOST = '127.0.0.1';

export { freePort };

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
  const port = await pickPort(options.ports ?? 0);
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
