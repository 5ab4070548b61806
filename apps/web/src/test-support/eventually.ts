/**
 * Options for `vi.waitFor` and `expect.poll` (and Testing Library's `waitFor`): how long to wait
 * for a condition. A condition waited for, not a speed promise: a passing test stops waiting as
 * soon as it holds, only a failure waits this long, so a slow or busy machine fails nothing.
 */
export const EVENTUALLY = { timeout: 20_000, interval: 50 };
