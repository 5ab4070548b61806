import { vi } from 'vitest';

/**
 * Waits until `check` says yes, asking again every `intervalMs`, for at most `withinMs`: a wait
 * for a condition, never a sleep that guesses how long it takes (issue 42). `vi.waitFor`, not
 * `expect.poll`, so that it works in `beforeAll` too, outside any test.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  withinMs: number,
  intervalMs = 100,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`not yet (${withinMs} ms at most)`);
    },
    { timeout: withinMs, interval: intervalMs },
  );
}
