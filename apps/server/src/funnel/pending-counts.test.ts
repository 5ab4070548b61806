import { describe, expect, it } from 'vitest';
import type { FunnelCountRow } from './funnel-repository.ts';
import { pendingCounts, pendingRowBytes } from './pending-counts.ts';

/** The held sums: each row written as it was counted, whatever its values hold. */
const ROW: Omit<FunnelCountRow, 'count'> = {
  day: '2026-06-01',
  kind: 'goods',
  itemId: 'XT9gwR1a_mH_vtRA',
  channel: 'qq',
  event: 'viewed',
};

describe('pending counts', () => {
  it('keeps rows apart that a joined key would confuse, and gives each back whole', () => {
    const pending = pendingCounts(1_000_000);
    // Joined with tabs, both would be `x\tgoods\tgoods\tid\tqq\tviewed`.
    const first = { ...ROW, day: 'x', itemId: 'goods\tid' };
    const second = { ...ROW, day: 'x\tgoods', itemId: 'id' };
    expect(pending.add(first, 1)).toBe(true);
    expect(pending.add(second, 2)).toBe(true);
    expect(pending.add(first, 3)).toBe(true);
    expect(pending.take()).toEqual([
      { ...first, count: 4 },
      { ...second, count: 2 },
    ]);
    expect(pending.size).toBe(0);
    expect(pending.bytes).toBe(0);
  });

  it('refuses a new row past its bound of bytes, never more to a row it holds', () => {
    const pending = pendingCounts(2 * pendingRowBytes(ROW));
    expect(pending.add(ROW, 1)).toBe(true);
    // Rows of the same size as the first.
    expect(pending.add({ ...ROW, itemId: '1_tv9KlIWLU6hH4D' }, 1)).toBe(true);
    expect(pending.add({ ...ROW, itemId: 'wY3OTTe03tFPyXsv' }, 1)).toBe(false);
    expect(pending.add(ROW, 5)).toBe(true);
    expect(pending.bytes).toBeLessThanOrEqual(2 * pendingRowBytes(ROW));
    // A long value costs its length: an 8 kB id alone does not fit where two rows do.
    expect(
      pendingCounts(2 * pendingRowBytes(ROW)).add({ ...ROW, itemId: 'x'.repeat(8_000) }, 1),
    ).toBe(false);
  });
});
