/** What a client of the cluster sees: a status, or a failure to get one (connection refused…). */
export interface Outcome {
  status: number | 'network-error';
  body: string;
  headers: Headers | undefined;
  /** Why there was no status (network errors). */
  error?: string;
}

export async function send(url: string, init: RequestInit = {}): Promise<Outcome> {
  try {
    const response = await fetch(url, {
      ...init,
      signal: init.signal ?? AbortSignal.timeout(15_000),
    });
    return { status: response.status, body: await response.text(), headers: response.headers };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    return {
      status: 'network-error',
      body: '',
      headers: undefined,
      error: `${String(error)} ${cause}`,
    };
  }
}

/** Runs `tasks` with at most `concurrency` at once, in order of the list. */
export async function inParallel<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

export { sleep } from '../../apps/server/src/timing/sleep.ts';
