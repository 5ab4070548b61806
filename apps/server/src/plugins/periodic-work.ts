import type { FastifyInstance } from 'fastify';
import { isJobInterruption } from '../db/run-alone.ts';

/** The first run waits a little, so a start (or a test) is not slowed by it. */
const FIRST_RUN_DELAY_MS = 10_000;

export interface PeriodicWork {
  /** What the logs call it, e.g. "the account deletion job". */
  name: string;
  run: () => Promise<unknown>;
  intervalMs: number;
  /** Before the first run; tests shorten it. */
  firstRunDelayMs?: number;
}

/** What a scheduled work answers: a way to run it now, between its ticks. */
export interface ScheduledWork {
  /**
   * Runs it as soon as the server is ready and no run is in progress (after the one in progress
   * if there is one): for work that has just been given something to do.
   */
  runSoon: () => void;
}

/**
 * Runs `work` on a schedule inside the server: soon after it starts, then every `intervalMs`. A
 * run never overlaps the one before; a failure is logged under the work's own name and the next
 * tick tries again. The timers never keep the process alive, and closing the server waits for a
 * run in progress.
 */
export function schedulePeriodicWork(app: FastifyInstance, work: PeriodicWork): ScheduledWork {
  let running: Promise<unknown> | undefined;
  let closed = false;
  let ready = false;
  let again = false;
  const tick = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = work
      .run()
      .catch((error: unknown) => {
        if (isJobInterruption(error)) {
          // The database went away mid-run: what was done stays done, the next tick resumes.
          app.log.warn(
            { err: error, work: work.name },
            `${work.name} stopped: the database connection was lost; the next run resumes it`,
          );
        } else {
          app.log.error({ err: error, work: work.name }, `${work.name} failed`);
        }
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  let first: NodeJS.Timeout | undefined;
  let every: NodeJS.Timeout | undefined;
  app.addHook('onReady', () => {
    ready = true;
    first = setTimeout(tick, work.firstRunDelayMs ?? FIRST_RUN_DELAY_MS).unref();
    every = setInterval(tick, work.intervalMs).unref();
    return Promise.resolve();
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(first);
    clearInterval(every);
    await running;
  });
  return {
    runSoon: () => {
      if (ready) tick();
    },
  };
}
