import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { pointsOf } from '../test-support/design-test-app.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { designRepository } from './design-repository.ts';

let data: TestDatabase | undefined;
afterEach(async () => {
  await data?.close();
  data = undefined;
});

async function karasuno(db: TestDatabase['db']): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('public_id', '=', DEMO_IDS.users.karasuno)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('design repository', () => {
  it('leaves nothing half-done when the server dies after the debit', async () => {
    data = await openTestDatabase();
    const { db } = data;
    const userId = await karasuno(db);
    const before = await pointsOf(db, 'karasuno');
    const key = randomUUID();
    const crashing = designRepository(db, {
      afterDebit: () => {
        throw new Error('killed mid-redemption');
      },
    });
    await expect(
      crashing.redeem({ userId, designId: DEMO_IDS.designs.sakura, idempotencyKey: key }),
    ).rejects.toThrow('killed mid-redemption');
    expect(await pointsOf(db, 'karasuno')).toEqual(before);

    // The app retries the same attempt on a healthy server: it goes through, once.
    const outcome = await designRepository(db).redeem({
      userId,
      designId: DEMO_IDS.designs.sakura,
      idempotencyKey: key,
    });
    expect(outcome.state).toBe('redeemed');
    const after = await pointsOf(db, 'karasuno');
    expect(after.balance).toBe(before.balance - 200);
    expect(after.ledgerEntries).toBe(before.ledgerEntries + 1);
    expect(after.ledgerSum).toBe(before.ledgerSum - 200);
  });

  it('rolls back its debit when a unique index refuses the redemption, and answers again', async () => {
    data = await openTestDatabase();
    const { db } = data;
    const userId = await karasuno(db);
    const before = await pointsOf(db, 'karasuno');
    const key = randomUUID();
    let raced = false;
    // Stands in for a parallel request that inserted the same redemption first (on PostgreSQL
    // two transactions can both pass the reads): the insert hits the unique index.
    const repository = designRepository(db, {
      afterDebit: async (trx) => {
        if (raced) return;
        raced = true;
        const design = await trx
          .selectFrom('designs')
          .select('id')
          .where('public_id', '=', DEMO_IDS.designs.shelf)
          .executeTakeFirstOrThrow();
        const entry = await trx
          .insertInto('point_ledger')
          .values({
            user_id: userId,
            delta: -1,
            balance_after: 0,
            reason: 'redemption',
            reference: 'competitor',
            created_at: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('redemptions')
          .values({
            public_id: 'competitorAAAAAA',
            user_id: userId,
            design_id: design.id,
            idempotency_key: key,
            price_points: 150,
            ledger_entry_id: entry.id,
            created_at: new Date().toISOString(),
          })
          .execute();
      },
    });
    const outcome = await repository.redeem({
      userId,
      designId: DEMO_IDS.designs.sakura,
      idempotencyKey: key,
    });
    expect(raced).toBe(true);
    expect(outcome.state).toBe('redeemed');
    const after = await pointsOf(db, 'karasuno');
    expect(after.balance).toBe(before.balance - 200);
    expect(after.ledgerEntries).toBe(before.ledgerEntries + 1);
    expect(after.redemptions).toBe(1);
    expect(after.ledgerSum).toBe(before.ledgerSum - 200);
  });

  it('shows the balances the stand-in platform sent; the ledger holds what was spent here', async () => {
    data = await openTestDatabase();
    for (const user of Object.keys(DEMO_IDS.users) as (keyof typeof DEMO_IDS.users)[]) {
      const points = await pointsOf(data.db, user);
      // Earnings are the platform's: the site's ledger has only its redemptions.
      expect(points.ledgerSum + points.redeemedPriceSum, user).toBe(0);
    }
    expect((await pointsOf(data.db, 'yuyuan')).redemptions).toBe(1);
    expect((await pointsOf(data.db, 'yuyuan')).balance).toBe(1200);
    expect((await pointsOf(data.db, 'satoru')).balance).toBe(120);
    expect((await pointsOf(data.db, 'chigu')).balance).toBe(0);
  });
});
