import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { plantFailingTrigger, removeFailingTrigger } from '../test-support/failing-trigger.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import {
  createFunnelCounter,
  type FunnelCount,
  type FunnelDropReason,
  type FunnelObserver,
} from './funnel-counter.ts';
import { addDays } from './funnel-days.ts';
import { removeFunnelDaysBefore } from './funnel-repository.ts';
import { pendingRowBytes } from './pending-counts.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

/** Counts written by the counter: added to what is stored, never lost to a failed write. */
const DAY = new Date('2026-06-01T04:00:00Z');
const VIEW: FunnelCount = {
  event: 'viewed',
  kind: 'goods',
  id: DEMO_IDS.goods.noPrice,
  channel: 'qq',
};

/** The row a count of DAY is held as. */
function rowOf({ event, kind, id, channel }: FunnelCount) {
  return { day: '2026-06-01', kind, itemId: id, channel, event };
}

/** Well formed (a public id's characters), but no item has it. */
const madeUpId = (index: number) => `Z${String(index).padStart(15, '0')}`;

/** An observer that keeps what it is told of dropped events: events per reason. */
function dropsObserver(): FunnelObserver & { drops: Partial<Record<FunnelDropReason, number>> } {
  const drops: Partial<Record<FunnelDropReason, number>> = {};
  return {
    drops,
    received: () => undefined,
    flushed: () => undefined,
    dropped: (reason, count = 1) => {
      drops[reason] = (drops[reason] ?? 0) + count;
    },
  };
}

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
    await expect.poll(stored, EVENTUALLY).toBe(before + 1);
    counter.count(VIEW);
    await counter.stop();
    expect(await stored()).toBe(before + 2);
  });

  it('drops events past what it may hold, and says so', async () => {
    const dropped: string[] = [];
    const counter = createFunnelCounter({
      db: data.db,
      now: () => DAY,
      // Room for one row.
      maxPendingBytes: pendingRowBytes(rowOf(VIEW)),
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

  it('never counts an id that is not a public id; no value of one moves into another field', async () => {
    const before = await stored();
    const observer = dropsObserver();
    const counter = createFunnelCounter({ db: data.db, now: () => DAY, observer });
    // What a link-domain path decodes to: a real id, then tabs and other fields' values.
    counter.count({ ...VIEW, id: `${VIEW.id}\tx\tx` });
    counter.count({ ...VIEW, id: `${VIEW.id}\twechat\thandoff_claimed` });
    counter.count({ ...VIEW, id: `${VIEW.id}${'x'.repeat(8_000)}` });
    counter.count(VIEW);
    await counter.flush();
    expect(await stored()).toBe(before + 1);
    expect(observer.drops).toEqual({ unknown_item: 3 });
    const forged = await data.db
      .selectFrom('share_funnel_days')
      .select('item_id')
      .where('day', '=', '2026-06-01')
      .where('event', '=', 'handoff_claimed')
      .execute();
    expect(forged).toEqual([]);
  });

  it('holds at most its bound of bytes: counts past it are dropped as overflow', async () => {
    const observer = dropsObserver();
    const bytesPerRow = pendingRowBytes(rowOf({ ...VIEW, id: madeUpId(0) }));
    const counter = createFunnelCounter({
      db: data.db,
      now: () => DAY,
      observer,
      maxPendingBytes: 5 * bytesPerRow,
    });
    for (let index = 0; index < 8; index += 1) counter.count({ ...VIEW, id: madeUpId(index) });
    // A row already held takes no more room.
    counter.count({ ...VIEW, id: madeUpId(0) });
    expect(observer.drops).toEqual({ overflow: 3 });
    await counter.stop();
  });

  it('drops a row the database refuses, says so in a log line, and writes the others', async () => {
    const refused: FunnelCount = { ...VIEW, id: DEMO_IDS.goods.gallery };
    const trigger = {
      name: 'refuse_gallery_counts',
      table: 'share_funnel_days',
      event: 'insert' as const,
      rowWhere: { column: 'item_id', equals: refused.id },
      message: 'refused by the test',
    };
    await plantFailingTrigger(data.db, trigger);
    try {
      const before = await stored();
      const observer = dropsObserver();
      const lines: { message: string; details: Record<string, unknown> }[] = [];
      const counter = createFunnelCounter({
        db: data.db,
        now: () => DAY,
        observer,
        log: {
          info: () => undefined,
          warn: (details, message) => {
            lines.push({ message, details: details as Record<string, unknown> });
          },
        },
      });
      counter.count(refused);
      counter.count(VIEW);
      await counter.flush();
      expect(await stored()).toBe(before + 1);
      expect(observer.drops).toEqual({ write_failed: 1 });
      expect(lines).toHaveLength(1);
      expect(lines[0]?.message).toMatch(/refused/);
      expect(lines[0]?.details).toMatchObject({
        rows: 1,
        first: { kind: 'goods', id: refused.id, channel: 'qq', event: 'viewed' },
      });
      // Not kept: the next write is the next second's events only, and succeeds.
      counter.count(VIEW);
      await counter.flush();
      expect(await stored()).toBe(before + 2);
      expect(observer.drops).toEqual({ write_failed: 1 });
    } finally {
      await removeFailingTrigger(data.db, trigger);
    }
  });

  it('checks and writes a batch of 70,000 made-up ids (past either engine’s parameter limit)', async () => {
    const before = await stored();
    const observer = dropsObserver();
    const counter = createFunnelCounter({ db: data.db, now: () => DAY, observer });
    const madeUp = 70_000;
    for (let index = 0; index < madeUp; index += 1) counter.count({ ...VIEW, id: madeUpId(index) });
    counter.count(VIEW);
    await counter.flush();
    expect(await stored()).toBe(before + 1);
    expect(observer.drops).toEqual({ unknown_item: madeUp });
  });

  it('drops the counts of made-up ids before keeping a failed write for the next try', async () => {
    const before = await stored();
    const observer = dropsObserver();
    const failures = { left: 1 };
    const counter = createFunnelCounter({ db: flaky(data.db, failures), now: () => DAY, observer });
    for (let index = 0; index < 3; index += 1) counter.count({ ...VIEW, id: madeUpId(index) });
    counter.count(VIEW);
    await counter.flush();
    expect(failures.left).toBe(0);
    expect(await stored()).toBe(before);
    expect(observer.drops).toEqual({ unknown_item: 3 });
    await counter.flush();
    expect(await stored()).toBe(before + 1);
    // Dropped once: the made-up ids were not kept, so not looked up (and dropped) again.
    expect(observer.drops).toEqual({ unknown_item: 3 });
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
