import type { Log } from '../http/logging.ts';

/**
 * A redemption's request answers within REDEMPTION_ANSWER_WITHIN_MS whatever the platform does
 * (issue 37; docs/decisions/0026-points-debits.md): it waits for the debit it asked that long at
 * most, then answers the redemption pending while the debit goes on here, under the redemption's
 * lease, and writes the platform's answer when it comes (or leaves it pending for the worker).
 * The page shows a pending redemption as being confirmed and polls until it completes.
 */

/** How long a redemption's request waits for the platform at most (under 2 s with the rest). */
export const REDEMPTION_ANSWER_WITHIN_MS = 1_500;

export interface BackgroundDebits {
  /**
   * Waits for `asking` until `deadline` (a `Date.now()` value): true once it has settled (its
   * failure thrown, as the request's), false when it goes on past the deadline, in the
   * background, where a failure is logged (the lease then runs out and the worker asks again).
   */
  settledBy(asking: Promise<unknown>, deadline: number): Promise<boolean>;
  /** Once every debit still in the background has settled (the server closing). */
  drain(): Promise<void>;
}

export function backgroundDebits(log?: Log): BackgroundDebits {
  const inFlight = new Set<Promise<void>>();
  return {
    async settledBy(asking, deadline) {
      let answered = false;
      const tracked: Promise<void> = asking
        .then(
          () => undefined,
          (error: unknown) => {
            if (answered) {
              log?.warn(
                { err: error },
                'a debit asked in the background could not be written; the worker asks again',
              );
            }
          },
        )
        .finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), 'late');
      });
      try {
        const first = await Promise.race([asking.then(() => 'settled' as const), late]);
        answered = first === 'late';
        return !answered;
      } finally {
        clearTimeout(timer);
      }
    },
    async drain() {
      await Promise.all(inFlight);
    },
  };
}
