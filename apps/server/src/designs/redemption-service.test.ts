import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { pointsOf } from '../test-support/design-test-app.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { designRepository } from './design-repository.ts';
import type { DebitAnswer, DebitRequest } from './points-debits.ts';
import { retryWaitMs } from './redemption-repository.ts';
import { redemptionService } from './redemption-service.ts';

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

/** A platform that answers from a script, keeping every request it got. */
function scriptedPlatform(answers: DebitAnswer[]) {
  const requests: DebitRequest[] = [];
  return {
    requests,
    requestDebit: (request: DebitRequest): Promise<DebitAnswer> => {
      requests.push(request);
      return Promise.resolve(answers.shift() ?? { kind: 'unknown', reason: 'no script left' });
    },
  };
}

describe('redemption service', () => {
  it(
    'keeps an unanswered debit pending and asks again, same key, with back-off, until answered',
    {
      timeout: 30_000,
    },
    async () => {
      data = await openTestDatabase();
      const { db } = data;
      const userId = await karasuno(db);
      let clock = new Date('2026-11-26T12:00:00.000Z');
      const now = () => clock;
      const platform = scriptedPlatform([
        { kind: 'unknown', reason: '500' },
        { kind: 'unknown', reason: 'no answer (TimeoutError)' },
        { kind: 'unknown', reason: '503' },
        { kind: 'charged', debitId: 'debit-1', balance: 300 },
      ]);
      const redemptions = redemptionService(db, { requestDebit: platform.requestDebit, now });
      const outcome = await redemptions.redeem({
        userId,
        designId: DEMO_IDS.designs.sakura,
        idempotencyKey: randomUUID(),
      });
      expect(outcome.state).toBe('pending');
      if (outcome.state !== 'pending') throw new Error('not pending');
      expect(outcome.result.redemption).toMatchObject({ state: 'pending', redeemedAt: null });
      expect(outcome.result.balanceAfter).toBeNull();

      // Not due before its wait is over; then asked again, and again after a longer wait.
      const waits: number[] = [];
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect((await redemptions.retryDue()).asked).toBe(0);
        waits.push(retryWaitMs(attempt));
        clock = new Date(clock.getTime() + retryWaitMs(attempt));
        expect((await redemptions.retryDue()).asked).toBe(1);
      }
      expect(waits).toEqual([1_000, 2_000, 4_000]);
      expect(retryWaitMs(7)).toBe(60_000);
      expect(retryWaitMs(30)).toBe(60_000);

      // Four requests, one key (the redemption's id), the same body.
      expect(platform.requests).toHaveLength(4);
      const keys = new Set(platform.requests.map((request) => request.key));
      expect(keys).toEqual(new Set([outcome.result.redemption.id]));
      expect(new Set(platform.requests.map((request) => JSON.stringify(request.body))).size).toBe(
        1,
      );
      expect(platform.requests[0]?.body).toEqual({
        userId: DEMO_IDS.users.karasuno,
        points: 200,
        reason: {
          kind: 'design_redemption',
          designId: DEMO_IDS.designs.sakura,
          redemptionId: outcome.result.redemption.id,
        },
      });
      const view = await designRepository(db).view(userId, DEMO_IDS.designs.sakura);
      expect(view?.viewer).toMatchObject({
        balance: 300,
        redemption: { id: outcome.result.redemption.id, state: 'redeemed' },
      });
      const row = await db
        .selectFrom('redemptions')
        .selectAll()
        .where('public_id', '=', outcome.result.redemption.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        state: 'redeemed',
        attempts: 4,
        debit_id: 'debit-1',
        balance_after: 300,
        lease_token: null,
      });
    },
  );

  it('refuses what the platform refuses, spends nothing, and lets a later tap try again', async () => {
    data = await openTestDatabase();
    const { db } = data;
    const userId = await karasuno(db);
    const before = await pointsOf(db, 'karasuno');
    const platform = scriptedPlatform([
      { kind: 'insufficient_points' },
      { kind: 'charged', debitId: 'debit-2', balance: 300 },
    ]);
    const redemptions = redemptionService(db, { requestDebit: platform.requestDebit });
    const key = randomUUID();
    const refused = await redemptions.redeem({
      userId,
      designId: DEMO_IDS.designs.sakura,
      idempotencyKey: key,
    });
    expect(refused).toEqual({
      state: 'insufficient_points',
      balance: before.balance,
      pricePoints: 200,
    });
    // The same key again: the same answer, the platform not asked again.
    expect(
      await redemptions.redeem({ userId, designId: DEMO_IDS.designs.sakura, idempotencyKey: key }),
    ).toEqual(refused);
    expect(platform.requests).toHaveLength(1);
    expect(await pointsOf(db, 'karasuno')).toMatchObject({ balance: before.balance, refused: 1 });
    const view = await designRepository(db).view(userId, DEMO_IDS.designs.sakura);
    expect(view?.viewer.redemption).toBeNull();

    // Points earned later: a new tap (a new key) is a new redemption.
    const later = await redemptions.redeem({
      userId,
      designId: DEMO_IDS.designs.sakura,
      idempotencyKey: randomUUID(),
    });
    expect(later.state).toBe('redeemed');
    expect(platform.requests).toHaveLength(2);
    expect(platform.requests[1]?.key).not.toBe(platform.requests[0]?.key);
  });

  it('writes an answer only while it holds the lease', async () => {
    data = await openTestDatabase();
    const { db } = data;
    const userId = await karasuno(db);
    let release: (() => void) | undefined;
    const requests: DebitRequest[] = [];
    // The first request is slow: its lease runs out and the worker asks again meanwhile.
    const requestDebit = async (request: DebitRequest): Promise<DebitAnswer> => {
      requests.push(request);
      if (requests.length === 1) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { kind: 'unknown', reason: 'late' };
      }
      return { kind: 'charged', debitId: 'debit-3', balance: 300 };
    };
    let clock = new Date('2026-11-26T12:00:00.000Z');
    const now = () => clock;
    const redemptions = redemptionService(db, { requestDebit, now });
    const first = redemptions.redeem({
      userId,
      designId: DEMO_IDS.designs.sakura,
      idempotencyKey: randomUUID(),
    });
    await expect.poll(() => release, { interval: 5 }).toBeDefined();
    clock = new Date(clock.getTime() + 60_000);
    expect(await redemptions.retryDue()).toMatchObject({ redeemed: 1 });
    release?.();
    // The late answer of the first holder changes nothing: the redemption stays redeemed.
    const outcome = await first;
    expect(outcome.state).toBe('redeemed');
    expect(new Set(requests.map((request) => request.key)).size).toBe(1);
  });

  it('shows the balances the stand-in platform sent, and the demo redemption as redeemed', async () => {
    data = await openTestDatabase();
    for (const user of Object.keys(DEMO_IDS.users) as (keyof typeof DEMO_IDS.users)[]) {
      const points = await pointsOf(data.db, user);
      expect(points.pending + points.refused, user).toBe(0);
    }
    expect(await pointsOf(data.db, 'yuyuan')).toMatchObject({
      redemptions: 1,
      balance: 1200,
      lastBalanceAfter: 1200,
    });
    expect((await pointsOf(data.db, 'satoru')).balance).toBe(120);
    expect((await pointsOf(data.db, 'chigu')).balance).toBe(0);
  });
});
