import { fork, type ChildProcess } from 'node:child_process';
import { z } from 'zod';

export const STAND_IN_READY = 'stand-in-ready';

const readySchema = z.object({
  type: z.literal(STAND_IN_READY),
  origin: z.string(),
  env: z.record(z.string(), z.string()),
});
export type StandInReady = z.infer<typeof readySchema>;

export interface StandInProcess {
  origin: string;
  /** The PLATFORM_* settings pointing at it. */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

/** How long the stand-in may take to start. */
const START_TIMEOUT_MS = 15_000;

/**
 * Forks the stand-in platform (`script`: dist/stand-in.js, built from stand-in-cli.ts) on
 * loopback and waits for its settings. It stops with `stop`, or by itself when this process ends
 * (the IPC channel closes).
 */
export function startStandInProcess({
  script,
  dataDir,
  port = 0,
}: {
  script: string;
  dataDir: string;
  port?: number;
}): Promise<StandInProcess> {
  const child: ChildProcess = fork(script, [], {
    env: {
      ...process.env,
      STAND_IN_DATA_DIR: dataDir,
      STAND_IN_HOST: '127.0.0.1',
      STAND_IN_PORT: String(port),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Not the server's own flags (an --inspect port, say).
    execArgv: [],
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Unreferenced once ready (below): referenced again, or a caller awaiting this with nothing
    // else to do would see its process end before the child's exit arrives (npm run cluster
    // ended without its "Stopped.").
    child.ref();
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the stand-in platform did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the stand-in platform exited (${String(code)}) before it was ready`));
    });
    child.on('message', (message) => {
      const ready = readySchema.safeParse(message);
      if (!ready.success) return;
      clearTimeout(timer);
      // The server does not wait for the stand-in to end before it exits.
      child.unref();
      child.channel?.unref();
      resolve({ origin: ready.data.origin, env: ready.data.env, stop });
    });
  });
}
