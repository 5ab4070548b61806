import { sleep } from './sleep.ts';

interface RetryWhile<T> {
  /** Whether the result asks for another try (busy, held by another…). */
  isRetryable: (result: T) => boolean | Promise<boolean>;
  /** How many tries in all, the first one included. */
  tries: number;
  /** The pause between two tries. */
  everyMs: number;
  signal?: AbortSignal;
}

/**
 * The one "ask again until it is not busy" loop: runs `attempt` until its result is not
 * retryable or `tries` have been made, `everyMs` apart, and returns the last result (the caller
 * tells a success from running out of tries by it). The last try's result is not judged.
 */
export async function retryWhile<T>(
  attempt: () => Promise<T>,
  { isRetryable, tries, everyMs, signal }: RetryWhile<T>,
): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    const result = await attempt();
    if (tried >= tries || !(await isRetryable(result))) return result;
    await sleep(everyMs, signal);
  }
}
