import type { ChildProcess } from 'node:child_process';

/** The demo data's fixed ids (bench-support.mjs). */
export function loadDemoIds(): Promise<Record<string, Record<string, string>>>;

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
}

/** Starts apps/server/dist/server.js and resolves once /health answers. */
export function startBuiltServer(options: StartBuiltServerOptions): Promise<ChildProcess>;

/** CPU time a process has used so far (user + system, all threads), in ms (Linux). */
export function cpuMs(pid: number): Promise<number>;
