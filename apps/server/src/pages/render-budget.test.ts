import { describe, expect, it } from 'vitest';
import { createRenderBudget, renderClientOf } from './render-budget.ts';

describe('the render budget', () => {
  it('lets a client have a burst of renders, then as many as refill', () => {
    let now = 0;
    const budget = createRenderBudget({ burst: 3, perSecond: 2, now: () => now });
    expect([1, 2, 3, 4].map(() => budget.take('a'))).toEqual([true, true, true, false]);
    // Another client has its own bucket.
    expect(budget.take('b')).toBe(true);
    now += 499;
    expect(budget.take('a')).toBe(false);
    now += 1;
    expect(budget.take('a')).toBe(true);
    expect(budget.take('a')).toBe(false);
    // Never more than the burst, however long the pause.
    now += 60_000;
    expect([1, 2, 3, 4].map(() => budget.take('a'))).toEqual([true, true, true, false]);
  });

  it('remembers a bounded number of clients, the least recently seen going first', () => {
    const budget = createRenderBudget({ burst: 1, perSecond: 0, maxClients: 2 });
    expect(budget.take('a')).toBe(true);
    expect(budget.take('b')).toBe(true);
    expect(budget.take('c')).toBe(true);
    // a was forgotten (a full bucket again); b and c are still empty.
    expect(budget.take('a')).toBe(true);
    expect(budget.take('c')).toBe(false);
  });
});

describe('renderClientOf', () => {
  it('counts an IPv4 address alone, an IPv6 address by its /64 network', () => {
    expect(renderClientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(renderClientOf('::ffff:203.0.113.7')).toBe('::ffff:203.0.113.7');
    expect(renderClientOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(renderClientOf('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(renderClientOf('2001:0db8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(renderClientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(renderClientOf('2001::1:2:3:4:5:6')).toBe('2001:0:1:2::/64');
    expect(renderClientOf('::1')).toBe('0:0:0:0::/64');
  });
});
