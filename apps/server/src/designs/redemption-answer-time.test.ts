import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designApiPath, designViewSchema, redemptionResultSchema } from '@guquan/contract/design';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import {
  buildTestAppWithDb,
  chargesOf,
  logIn,
  redeem,
  pointsOf,
  type TestAppWithDb,
} from '../test-support/design-test-app.ts';
import { standInOf } from '../test-support/test-app.ts';

/**
 * Issue 37 (item 13): a redemption's request answers within 2 s whatever the platform does. A
 * platform that holds the debit (the stand-in's `hang` fault, or its answers held as a slow
 * platform's) no longer holds the user: the request answers 202 pending while the stand-in still
 * holds the debit, and the debit completes in the background, charged once. Asserted on states
 * (what the stand-in holds when the answer arrives, what the redemption becomes), not on a clock.
 */
let t: TestAppWithDb;
beforeAll(async () => {
  t = await buildTestAppWithDb();
});
afterAll(async () => {
  await t.close();
});

async function viewOf(token: string, designId: string) {
  const response = await t.app.inject({
    url: designApiPath(designId),
    headers: { authorization: `Bearer ${token}` },
  });
  return designViewSchema.parse(response.json());
}

async function redemptionRow(publicId: string) {
  return t.db
    .selectFrom('redemptions')
    .select(['state', 'attempts', 'lease_token'])
    .where('public_id', '=', publicId)
    .executeTakeFirstOrThrow();
}

function debitsOf(user: DemoUserKey) {
  return standInOf(t.app)
    .ledger.debits()
    .filter((debit) => debit.userId === DEMO_IDS.users[user]);
}

describe('a redemption answered without waiting for the platform', () => {
  it('a platform that holds the debit: 202 pending while it still holds it, then redeemed, charged once', async () => {
    const { ledger } = standInOf(t.app);
    const token = await logIn(t.app, 'karasuno');
    const before = await pointsOf(t.db, 'karasuno');
    const requests = ledger.requests();
    ledger.setNextFault('hang');
    const key = randomUUID();

    const tap = await redeem(t.app, token, DEMO_IDS.designs.sakura, key);
    expect(tap.statusCode, tap.body).toBe(202);
    // The stand-in still holds the debit: the answer did not wait for the platform.
    expect(ledger.holding()).toBe(1);
    const { redemption, balanceAfter } = redemptionResultSchema.parse(tap.json());
    expect(redemption.state).toBe('pending');
    expect(balanceAfter).toBeNull();
    // Still being asked by this request's attempt: its lease held, no attempt written yet.
    expect(await redemptionRow(redemption.id)).toMatchObject({
      state: 'pending',
      attempts: 0,
      lease_token: expect.any(String) as string,
    });

    // The page polls; the held request times out and the worker asks again with the same key.
    await expect
      .poll(async () => (await viewOf(token, DEMO_IDS.designs.sakura)).viewer.redemption?.state)
      .toBe('redeemed');
    expect(ledger.requests() - requests).toBe(2);
    expect(debitsOf('karasuno').map((debit) => debit.key)).toEqual([redemption.id]);
    expect((await pointsOf(t.db, 'karasuno')).balance).toBe(before.balance - 200);
    expect(chargesOf(t.app, 'karasuno').balance).toBe(before.balance - 200);
    // A retried tap (same key) now answers the redemption, redeemed.
    const again = await redeem(t.app, token, DEMO_IDS.designs.sakura, key);
    expect(again.statusCode).toBe(200);
    expect(redemptionResultSchema.parse(again.json())).toMatchObject({
      redemption: { id: redemption.id, state: 'redeemed' },
      balanceAfter: before.balance - 200,
    });
  });

  it('a slow platform: 202 pending while it holds the charged answer; that answer completes it', async () => {
    const { ledger } = standInOf(t.app);
    const token = await logIn(t.app, 'conductor');
    const before = await pointsOf(t.db, 'conductor');
    const requests = ledger.requests();
    const release = ledger.holdAnswers();
    try {
      const key = randomUUID();
      const tap = await redeem(t.app, token, DEMO_IDS.designs.shelf, key);
      expect(tap.statusCode, tap.body).toBe(202);
      // Charged by the platform, its answer still held: the request did not wait for it.
      expect(ledger.holding()).toBe(1);
      const { redemption } = redemptionResultSchema.parse(tap.json());
      expect(redemption.state).toBe('pending');
      expect(debitsOf('conductor').map((debit) => debit.key)).toEqual([redemption.id]);
      expect(await redemptionRow(redemption.id)).toMatchObject({
        state: 'pending',
        attempts: 0,
        lease_token: expect.any(String) as string,
      });

      // A double tap meanwhile answers the same redemption, pending, and asks nothing more.
      const repeat = await redeem(t.app, token, DEMO_IDS.designs.shelf, key);
      expect(repeat.statusCode, repeat.body).toBe(202);
      expect(redemptionResultSchema.parse(repeat.json()).redemption.id).toBe(redemption.id);
      expect(ledger.holding()).toBe(1);
      expect(ledger.requests() - requests).toBe(1);

      // The platform answers: the attempt the request started writes it, redeemed.
      release();
      await expect.poll(async () => (await redemptionRow(redemption.id)).state).toBe('redeemed');
      expect(await redemptionRow(redemption.id)).toEqual({
        state: 'redeemed',
        attempts: 1,
        lease_token: null,
      });
      expect(ledger.requests() - requests).toBe(1);
      expect(debitsOf('conductor')).toHaveLength(1);
      const view = await viewOf(token, DEMO_IDS.designs.shelf);
      expect(view.viewer.redemption).toMatchObject({ id: redemption.id, state: 'redeemed' });
      expect(view.viewer.balance).toBe(before.balance - 150);
      expect(chargesOf(t.app, 'conductor').balance).toBe(before.balance - 150);
    } finally {
      release();
    }
  });
});
