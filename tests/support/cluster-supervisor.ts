// Keeps a child process running as systemd's `Restart=always` would: when it exits on its own
// (a crash, a fault that ended it, kill -9), it is started again after a delay that doubles with
// each quick failure (100 ms, 200 ms, … up to 10 s) and falls back to the first once a run has
// lasted. `npm run cluster` (cluster.ts) runs its app servers under it.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface Backoff {
  firstMs: number;
  maxMs: number;
  stableMs: number;
}

export interface Restart {
  /** The exit code or signal. */
  exit: number | NodeJS.Signals | null;
  /** How long that run lasted. */
  ranMs: number;
  /** How long the supervisor waited before starting it again. */
  delayMs: number;
}

export interface Supervised {
  readonly child: ChildProcess;
  restarts: Restart[];
  watch: () => void;
  /** From now on an exit is not restarted (a shutdown has begun); the child is left as it is. */
  hold: () => void;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export const RESTART_BACKOFF: Backoff = {
  /** The delay before the first restart after a run that lasted. */
  firstMs: 100,
  /** The longest delay, however often it keeps failing. */
  maxMs: 10_000,
  /** A run this long counts as having lasted: the next failure starts from firstMs again. */
  stableMs: 30_000,
};

/**
 * Starts `start()` (which spawns and returns a ChildProcess) and restarts it whenever it exits,
 * once `watch()` was called (before that, an exit is the caller's to see: a server that cannot
 * start at all should fail the start, not loop). `stop()` ends it for good.
 */
export function supervise({
  name,
  start,
  log = () => undefined,
  backoff = RESTART_BACKOFF,
}: {
  name: string;
  start: () => ChildProcess;
  log?: (line: string) => void;
  backoff?: Backoff;
}): Supervised {
  let child = start();
  let startedAt = Date.now();
  let watching = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let lastDelay = 0;
  /** Each restart: when the child exited, how, and how long the supervisor waited. */
  const restarts: Restart[] = [];

  const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    if (stopping || !watching) return;
    const ran = Date.now() - startedAt;
    const delayMs =
      lastDelay === 0 || ran >= backoff.stableMs
        ? backoff.firstMs
        : Math.min(lastDelay * 2, backoff.maxMs);
    lastDelay = delayMs;
    restarts.push({ exit: signal ?? code, ranMs: ran, delayMs });
    log(`${name} exited (${signal ?? code}); restarting in ${delayMs} ms`);
    timer = setTimeout(() => {
      timer = undefined;
      if (stopping) return;
      child = start();
      startedAt = Date.now();
      child.once('exit', onExit);
      log(`${name} restarted (pid ${child.pid})`);
    }, delayMs);
  };
  child.once('exit', onExit);

  return {
    get child() {
      return child;
    },
    restarts,
    watch() {
      watching = true;
    },
    hold() {
      stopping = true;
      clearTimeout(timer);
    },
    /** Ends supervision and the child (SIGTERM, or `signal`), waiting for it to exit. */
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      stopping = true;
      clearTimeout(timer);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
