import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchSlots, type SlotPolicy } from './fetch-slots.ts';

// The image fetcher's slots on a controlled clock (docs/decisions/0023-platform-images.md).

const POLICY: SlotPolicy = {
  slots: 2,
  slotMs: 2_000,
  aside: 1,
  minBytesPerSecond: 1_000,
  rateWindowMs: 5_000,
};

let freed: number;
let abandoned: string[];

function slots(policy: SlotPolicy = POLICY) {
  return fetchSlots(policy, () => {
    freed += 1;
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  freed = 0;
  abandoned = [];
});
afterEach(() => {
  vi.useRealTimers();
});

const take = (pool: ReturnType<typeof fetchSlots>, name: string) =>
  pool.take((reason) => abandoned.push(`${name}: ${reason}`));

describe('the image fetcher slots', () => {
  it('keeps a slot until its fetch ends, within the slot time', () => {
    const pool = slots();
    const first = take(pool, 'first');
    take(pool, 'second');
    expect(pool.free()).toBe(0);
    vi.advanceTimersByTime(1_999);
    first.end();
    expect(pool.free()).toBe(1);
    // An ended fetch is never abandoned, and gives nothing back twice.
    first.end();
    vi.advanceTimersByTime(60_000);
    expect(pool.free()).toBe(2);
    // The second went on aside (the first had ended) and brought nothing there.
    expect(abandoned).toEqual(['second: too slow: 0 bytes in 5 s (at least 1000 a second)']);
  });

  it('gives the slot back after the slot time: the fetch goes on aside while there is room', () => {
    const pool = slots();
    const slow = take(pool, 'slow');
    take(pool, 'slower');
    vi.advanceTimersByTime(2_000);
    // Both slots are free again: one fetch went aside, the other found no room and was dropped.
    expect(pool.free()).toBe(2);
    expect(freed).toBe(2);
    expect(abandoned).toEqual(['slower: still going after 2 s, with no room to go on aside']);
    // Aside, it keeps the rate: 5,000 bytes in each 5 s.
    slow.received(5_000);
    vi.advanceTimersByTime(5_000);
    slow.received(4_999);
    expect(abandoned).toHaveLength(1);
    vi.advanceTimersByTime(5_000);
    expect(abandoned.at(-1)).toBe('slow: too slow: 4999 bytes in 5 s (at least 1000 a second)');
    // Its place aside is free for the next one.
    const next = take(pool, 'next');
    vi.advanceTimersByTime(2_000);
    expect(abandoned).toHaveLength(2);
    next.end();
  });

  it('drops a dripping fetch from aside after one window', () => {
    const pool = slots();
    const drip = take(pool, 'drip');
    for (let second = 0; second < 7; second++) {
      drip.received(1);
      vi.advanceTimersByTime(1_000);
    }
    expect(abandoned).toEqual(['drip: too slow: 5 bytes in 5 s (at least 1000 a second)']);
    expect(pool.free()).toBe(2);
    drip.end();
    expect(pool.free()).toBe(2);
  });
});
