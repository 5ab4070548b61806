import { setTimeout as wait } from 'node:timers/promises';

/**
 * The one pause of the server and its tests: resolves after `ms`, or rejects (an AbortError)
 * when `signal` is aborted first.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return wait(ms, undefined, signal === undefined ? undefined : { signal });
}
