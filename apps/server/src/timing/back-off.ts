/**
 * The one back-off: the wait before trying again after the `attempt`-th failure (1 for the
 * first). It starts at `firstMs`, grows `factor` times an attempt (twice, unless said) up to
 * `maxMs`, and, with `jitter` (a fraction: 0.2 is a fifth either way), is spread at random
 * around that so that servers that failed together do not come back together.
 */
interface BackOff {
  attempt: number;
  firstMs: number;
  maxMs: number;
  factor?: number;
  jitter?: number;
}

export function backOff({ attempt, firstMs, maxMs, factor = 2, jitter = 0 }: BackOff): number {
  const base = Math.min(maxMs, firstMs * factor ** Math.max(0, attempt - 1));
  if (jitter === 0) return base;
  return Math.round(base * (1 - jitter + Math.random() * 2 * jitter));
}
