/** Restarts a child process that exits, with a back-off (cluster-supervisor.mjs). */
import type { ChildProcess } from 'node:child_process';

export interface Backoff {
  firstMs: number;
  maxMs: number;
  stableMs: number;
}

export const RESTART_BACKOFF: Backoff;

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
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export function supervise(options: {
  name: string;
  start: () => ChildProcess;
  log?: (line: string) => void;
  backoff?: Backoff;
}): Supervised;
