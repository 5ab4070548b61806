import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueOutboxItem } from '../outbox/outbox-repository.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { isPostgres } from './database.ts';
import { leaseEnd, leaseFree, newLease, NO_LEASE, unheldRow } from './leases.ts';

let test: TestDatabase;
let id: number;
const now = new Date('2026-01-01T00:00:00.000Z');

beforeAll(async () => {
  test = await openTestDatabase({ seed: false });
  const item = { channel: 'text', kind: 'lease-test', partitionKey: null, payload: 'x' } as const;
  await queueOutboxItem(test.db, item, now);
  ({ id } = await test.db
    .selectFrom('outbox')
    .select('id')
    .where('kind', '=', 'lease-test')
    .executeTakeFirstOrThrow());
});

afterAll(async () => {
  await test.close();
});

/** Takes the row with one conditional UPDATE, as the outbox, redemptions and images do. */
async function claim(at: Date, ms: number): Promise<string | undefined> {
  const lease = newLease(at, ms);
  const result = await test.db
    .updateTable('outbox')
    .set({ lease_token: lease.token, lease_until: lease.until })
    .where('id', '=', id)
    .where(leaseFree<'outbox'>('lease_until', at.toISOString()))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? lease.token : undefined;
}

describe('leases', () => {
  it('runs out `ms` after it is taken, under a token of its own', () => {
    const a = newLease(now, 15_000);
    const b = newLease(now, 15_000);
    expect(a.until).toBe('2026-01-01T00:00:15.000Z');
    expect(leaseEnd(now, 60_000)).toBe('2026-01-01T00:01:00.000Z');
    expect(a.token).not.toBe(b.token);
  });

  it('is taken by one holder until it runs out or is given back', async () => {
    const first = await claim(now, 10_000);
    expect(first).toBeDefined();
    expect(await claim(new Date(now.getTime() + 9_999), 10_000)).toBeUndefined();
    const second = await claim(new Date(now.getTime() + 10_000), 10_000);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    const token = second ?? '';
    await test.db.updateTable('outbox').set(NO_LEASE).where('lease_token', '=', token).execute();
    expect(await claim(now, 10_000)).toBeDefined();
  });

  it('skips a row another transaction holds on PostgreSQL, and finds it on SQLite', async () => {
    const { db } = test;
    if (!isPostgres(db)) {
      expect(await unheldRow(db, 'outbox', id).execute()).toEqual([{ id }]);
      return;
    }
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = db.transaction().execute(async (trx) => {
      await trx.selectFrom('outbox').select('id').where('id', '=', id).forUpdate().execute();
      held();
      await released;
    });
    await holding;
    expect(await unheldRow(db, 'outbox', id).execute()).toEqual([]);
    release();
    await holder;
    expect(await unheldRow(db, 'outbox', id).execute()).toEqual([{ id }]);
  });
});
