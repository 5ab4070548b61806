import type { FastifyInstance } from 'fastify';

const DELETION_JOB_INTERVAL_MS = 60 * 60 * 1000;
/** The first run waits a little, so a start (or a test) is not slowed by it. */
const FIRST_RUN_DELAY_MS = 10_000;

/**
 * Runs the deletion job on a schedule inside the server: soon after it starts, then hourly. The
 * timers never keep the process alive, and closing the server waits for a run in progress. Several
 * servers may run it at once: each user's deletion re-checks its request in its own transaction.
 */
export function scheduleAccountDeletionJob(
  app: FastifyInstance,
  run: () => Promise<unknown>,
  intervalMs = DELETION_JOB_INTERVAL_MS,
  /** What the log calls it when a run fails. */
  name = 'the account deletion job',
): void {
  let running: Promise<unknown> | undefined;
  let closed = false;
  const tick = () => {
    if (running || closed) return;
    running = run()
      .catch((error: unknown) => {
        app.log.error({ err: error }, `${name} failed`);
      })
      .finally(() => {
        running = undefined;
      });
  };
  let first: NodeJS.Timeout | undefined;
  let every: NodeJS.Timeout | undefined;
  app.addHook('onReady', () => {
    first = setTimeout(tick, FIRST_RUN_DELAY_MS).unref();
    every = setInterval(tick, intervalMs).unref();
    return Promise.resolve();
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(first);
    clearInterval(every);
    await running;
  });
}
