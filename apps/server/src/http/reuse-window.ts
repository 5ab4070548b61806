import type { Perf } from 'lru-cache';

/** The options of lru-cache that make an entry answer for a while after it was read. */
export interface ReuseWindow {
  ttl: number;
  ttlResolution: number;
  perf: Perf;
}

/**
 * lru-cache's options for a value read once that answers everyone for `ms`, and never longer: a
 * share item's read (the origin's reuse in http/shared-caches.ts's promise), the metrics' outbox
 * query. Four of lru-cache's ways, made explicit here so no cache has to know them:
 *
 * - its clock is performance.now(), which tests cannot move (vi.setSystemTime moves Date): the
 *   clock here is `now`, Date.now() (looked up on each call) unless a test gives its own;
 * - it keeps an entry while its age is at most `ttl`; a read here is reused while it is younger
 *   than `ms`, so `ttl` is `ms` − 1;
 * - by default it reads the clock once a millisecond and sets a timer to forget it: 0 reads the
 *   clock on each look-up instead (as cheap), with no timer, and sees a test's clock as it moves;
 * - it takes a start time of 0 for "no expiry": the clock, which in a test may start at 0, is read
 *   one millisecond ahead (ages are the same).
 */
export function reuseWindow(ms: number, now: () => number = () => Date.now()): ReuseWindow {
  if (!Number.isInteger(ms) || ms < 2)
    throw new RangeError(`a reuse window is a whole number of milliseconds, at least 2: ${ms}`);
  return { ttl: ms - 1, ttlResolution: 0, perf: { now: () => now() + 1 } };
}
