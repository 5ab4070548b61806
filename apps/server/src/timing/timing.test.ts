import { afterEach, describe, expect, it, vi } from 'vitest';
import { backOff } from './back-off.ts';
import { retryWhile } from './retry-while.ts';
import { sleep } from './sleep.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('backOff', () => {
  it('doubles from the first wait up to the longest', () => {
    const waits = [0, 1, 2, 3, 4, 8].map((attempt) =>
      backOff({ attempt, firstMs: 1_000, maxMs: 10_000 }),
    );
    expect(waits).toEqual([1_000, 1_000, 2_000, 4_000, 8_000, 10_000]);
  });

  it('grows by the factor given', () => {
    const waits = [1, 2, 3].map((attempt) =>
      backOff({ attempt, firstMs: 500, maxMs: 60_000, factor: 4 }),
    );
    expect(waits).toEqual([500, 2_000, 8_000]);
  });

  it('spreads a wait by the jitter, either way, rounded', () => {
    vi.spyOn(Math, 'random').mockReturnValueOnce(0).mockReturnValueOnce(0.999999);
    const low = backOff({ attempt: 2, firstMs: 1_000, maxMs: 60_000, jitter: 0.2 });
    const high = backOff({ attempt: 2, firstMs: 1_000, maxMs: 60_000, jitter: 0.2 });
    expect(low).toBe(1_600);
    expect(high).toBe(2_400);
  });
});

describe('retryWhile', () => {
  it('tries again while the result asks for it, and returns the first that does not', async () => {
    const answers = ['busy', 'busy', 'done', 'never'];
    const attempt = vi.fn(() => Promise.resolve(answers.shift()));
    const result = await retryWhile(attempt, {
      isRetryable: (answer) => answer === 'busy',
      tries: 10,
      everyMs: 1,
    });
    expect(result).toBe('done');
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it('stops after the tries given, without judging the last result', async () => {
    const attempt = vi.fn(() => Promise.resolve('busy'));
    const isRetryable = vi.fn(() => true);
    const result = await retryWhile(attempt, { isRetryable, tries: 3, everyMs: 1 });
    expect(result).toBe('busy');
    expect(attempt).toHaveBeenCalledTimes(3);
    expect(isRetryable).toHaveBeenCalledTimes(2);
  });

  it('stops waiting when aborted', async () => {
    const aborting = new AbortController();
    const retrying = retryWhile(() => Promise.resolve('busy'), {
      isRetryable: () => true,
      tries: 10,
      everyMs: 60_000,
      signal: aborting.signal,
    });
    aborting.abort();
    await expect(retrying).rejects.toThrow(/abort/i);
  });
});

describe('sleep', () => {
  it('waits at least the time given', async () => {
    const started = performance.now();
    await sleep(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
  });

  it('rejects when aborted', async () => {
    await expect(sleep(60_000, AbortSignal.abort())).rejects.toThrow(/abort/i);
  });
});
