import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { createFunnelCounter, type FunnelCount } from './funnel-counter.ts';
import { addDays } from './funnel-days.ts';
import { removeFunnelDaysBefore } from './funnel-repository.ts';

/** Counts written by the counter: added to what is stored, never lost to a failed write. */
const DAY = new Date('2026-06-01T04:00:00Z');
const VIEW: FunnelCount = {
  event: 'viewed',
  kind: 'goods',
  id: DEMO_IDS.goods.noPrice,
  channel: 'qq',
};

let data: TestDatabase;
beforeAll(async () => {
  data = await openTestDatabase();
});
afterAll(() => data.close());

async function stored(): Promise<number> {
  const row = await data.db
    .selectFrom('share_funnel_days')
    .select('count')
    .where('day', '=', '2026-06-01')
    .where('item_id', '=', VIEW.id)
    .where('channel', '=', 'qq')
    .where('event', '=', 'viewed')
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** The database, except that its next `failures` transactions fail as if it were away. */
function flaky(db: Db, failures: { left: number }): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction' && failures.left > 0) {
        failures.left -= 1;
        return () => ({
          execute: () =>
            Promise.reject(
              Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
            ),
        });
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

describe('the funnel counter', () => {
  it('adds to the stored counts: two servers writing the same row both count', async () => {
    const before = await stored();
    const first = createFunnelCounter({ db: data.db, now: () => DAY });
    const second = createFunnelCounter({ db: data.db, now: () => DAY });
    for (let index = 0; index < 3; index += 1) first.count(VIEW);
    for (let index = 0; index < 4; index += 1) second.count(VIEW);
    await Promise.all([first.flush(), second.flush()]);
    expect(await stored()).toBe(before + 7);
    // Nothing held: flushing again writes nothing more.
    await first.flush();
    expect(await stored()).toBe(before + 7);
  });

  it('keeps the sums of a failed write for the next one: nothing lost, nothing twice', async () => {
    const before = await stored();
    const failures = { left: 1 };
    const dropped: string[] = [];
    const counter = createFunnelCounter({
      db: flaky(data.db, failures),
      now: () => DAY,
      observer: {
        received: () => undefined,
        flushed: () => undefined,
        dropped: (reason) => dropped.push(reason),
      },
    });
    counter.count(VIEW);
    counter.count(VIEW);
    await counter.flush();
    expect(failures.left).toBe(0);
    expect(await stored()).toBe(before);
    counter.count(VIEW);
    await counter.flush();
    expect(await stored()).toBe(before + 3);
    expect(dropped).toEqual([]);
  });

  it('writes at most once per interval, and what is left when stopped', async () => {
    const before = await stored();
    const counter = createFunnelCounter({ db: data.db, now: () => DAY, intervalMs: 200 });
    counter.start();
    counter.count(VIEW);
    await expect.poll(stored, { timeout: 5_000 }).toBe(before + 1);
    counter.count(VIEW);
    await counter.stop();
    expect(await stored()).toBe(before + 2);
  });

  it('drops events past what it may hold, and says so', async () => {
    const dropped: string[] = [];
    const counter = createFunnelCounter({
      db: data.db,
      now: () => DAY,
      maxPending: 1,
      observer: {
        received: () => undefined,
        flushed: () => undefined,
        dropped: (reason) => dropped.push(reason),
      },
    });
    counter.count(VIEW);
    counter.count({ ...VIEW, channel: 'weibo' });
    counter.count(VIEW);
    expect(dropped).toEqual(['overflow']);
    await counter.stop();
  });

  it('keeps 400 days: the periodic work removes older days, and only those', async () => {
    const today = '2026-06-01';
    const rows = [-401, -400, -399, 0].map((back) => ({
      day: addDays(today, back),
      kind: 'goods' as const,
      item_id: VIEW.id,
      channel: 'weibo' as const,
      event: 'link_copied' as const,
      count: 1,
    }));
    await data.db.insertInto('share_funnel_days').values(rows).execute();
    const removed = await removeFunnelDaysBefore(data.db, addDays(today, -400));
    expect(removed).toBe(1);
    const left = await data.db
      .selectFrom('share_funnel_days')
      .select('day')
      .where('channel', '=', 'weibo')
      .where('event', '=', 'link_copied')
      .where('day', '<=', today)
      .orderBy('day')
      .execute();
    expect(left.map((row) => row.day)).toEqual(['2025-04-27', '2025-04-28', '2026-06-01']);
  });
});
