import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { reuseWindow } from './reuse-window.ts';

describe('reuseWindow', () => {
  it('lets an entry answer while it is younger than the window, on a clock that starts at 0', () => {
    let clock = 0;
    const reads = new LRUCache<string, string>({ max: 10, ...reuseWindow(1_000, () => clock) });
    reads.set('item', 'first read');
    clock = 999;
    expect(reads.get('item')).toBe('first read');
    clock = 1_000;
    expect(reads.get('item')).toBeUndefined();
  });

  it('reads the clock on each look-up, never a moment old', () => {
    let clock = 5_000;
    const reads = new LRUCache<string, string>({ max: 10, ...reuseWindow(2, () => clock) });
    reads.set('item', 'read');
    expect(reads.get('item')).toBe('read');
    clock += 2;
    expect(reads.get('item')).toBeUndefined();
  });

  it('refuses a window lru-cache would take for none', () => {
    expect(() => reuseWindow(1)).toThrow(RangeError);
    expect(() => reuseWindow(0.5)).toThrow(RangeError);
  });
});
