// A throwaway Redis: Debian's redis-server on loopback and a free port, in memory only (nothing
// saved), as a child of this process. The rate-limit tests and `npm run cluster` both use it.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { freePort, pickPort } from './postgres-server.ts';

const HOST = '127.0.0.1';

export { freePort };

/** A throwaway Redis. */
export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  url: string;
  port: number;
  /** The running redis-server's process id (undefined while stopped). */
  readonly pid: number | undefined;
  /** Stops it; its data goes with it. */
  stop: () => Promise<void>;
  /** Starts it again on the same port, empty. */
  restart: () => Promise<void>;
}

export interface StartRedisOptions {
  /** A [from, to] range to take the first free port of (default: any free port). */
  ports?: [number, number];
  /** The signal stop() sends (default SIGTERM; SIGKILL for an abrupt loss). */
  stopSignal?: NodeJS.Signals;
  /** The redis-server binary (default from PATH). */
  command?: string;
}

type RedisChild = ChildProcessByStdio<null, Readable, null>;

/** Waits until a child prints `marker` (on stdout), or fails when it exits first. */
function readyWhen(child: RedisChild, marker: string, what: string): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      reject(new Error(`${what} exited (${signal ?? code}) before it was ready:\n${output}`));
    };
    child.once('error', reject);
    child.once('exit', onExit);
    child.stdout.on('data', (chunk: Buffer) => {
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
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const port = await pickPort(options.ports ?? 0);
  let child: RedisChild | undefined;

  async function start(): Promise<void> {
    child = spawn(
      options.command ?? 'redis-server',
      // No RDB snapshots nor append-only file: the counters are worth nothing after a restart.
      ['--bind', HOST, '--port', String(port), '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await readyWhen(child, 'Ready to accept connections', 'redis-server');
  }

  async function stop(): Promise<void> {
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
