import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { designApiPath, designViewSchema, redemptionResultSchema } from '@guquan/contract/design';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import {
  buildTestAppWithDb,
  PATIENT_REDEMPTIONS,
  chargesOf,
  logIn,
  redeem,
  pointsOf,
  type TestAppWithDb,
} from '../test-support/design-test-app.ts';
import { standInOf } from '../test-support/test-app.ts';

/**
 * Points spent through the platform (issue 30, section 3), on the stand-in platform's ledger:
 * whatever the platform does (refuses, fails, loses its answer), a redemption is charged once,
 * with one key, and completes by itself.
 */
let t: TestAppWithDb;
beforeAll(async () => {
  t = await buildTestAppWithDb(PATIENT_REDEMPTIONS);
});
afterAll(async () => {
  await t.close();
});

/** The user's redemption of the design, once it is no longer pending. */
async function settled(token: string, designId: string) {
  const read = async () => {
    const response = await t.app.inject({
      url: designApiPath(designId),
      headers: { authorization: `Bearer ${token}` },
    });
    return designViewSchema.parse(response.json());
  };
  // A limit for a hang, not a speed: the worker asks again each second.
  await expect
    .poll(async () => (await read()).viewer.redemption?.state, { timeout: 60_000, interval: 200 })
    .not.toBe('pending');
  return read();
}

function debitsOf(user: DemoUserKey) {
  return standInOf(t.app)
    .ledger.debits()
    .filter((debit) => debit.userId === DEMO_IDS.users[user]);
}

describe('redemptions spent through the platform', () => {
  it('30 parallel taps of a redemption make one debit request', async () => {
    const { ledger } = standInOf(t.app);
    const token = await logIn(t.app, 'conductor');
    const before = await pointsOf(t.db, 'conductor');
    const requests = ledger.requests();
    const key = randomUUID();
    // A double tap retried 20 times, and ten other devices' attempts of the same design.
    const keys = [
      ...Array.from({ length: 20 }, () => key),
      ...Array.from({ length: 10 }, randomUUID),
    ];
    const responses = await Promise.all(
      keys.map((k) => redeem(t.app, token, DEMO_IDS.designs.sakura, k)),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => ![200, 201, 409].includes(status))).toEqual([]);
    expect(ledger.requests() - requests).toBe(1);
    const charged = debitsOf('conductor').filter(
      (debit) => debit.designId === DEMO_IDS.designs.sakura,
    );
    expect(charged).toHaveLength(1);
    const winner = redemptionResultSchema.parse(
      responses.find((response) => response.statusCode === 201)?.json(),
    );
    expect(charged[0]?.key).toBe(winner.redemption.id);
    expect((await pointsOf(t.db, 'conductor')).balance).toBe(before.balance - 200);
    expect(chargesOf(t.app, 'conductor').balance).toBe(before.balance - 200);
  });

  it('too few points: 409 insufficient_points, nothing charged', async () => {
    const token = await logIn(t.app, 'satoru');
    const before = chargesOf(t.app, 'satoru');
    const response = await redeem(t.app, token, DEMO_IDS.designs.shelf, randomUUID());
    expect(response.statusCode).toBe(409);
    expect(apiErrorSchema.parse(response.json()).error.code).toBe('insufficient_points');
    expect(chargesOf(t.app, 'satoru')).toEqual({
      ...before,
      refused: before.refused + 1,
    });
    expect((await pointsOf(t.db, 'satoru')).balance).toBe(120);
    const view = await settled(token, DEMO_IDS.designs.shelf);
    expect(view.viewer).toMatchObject({ balance: 120, redemption: null });
  });

  it('the platform failing three times, then answering: the worker completes it, one charge', async () => {
    const { ledger } = standInOf(t.app);
    const token = await logIn(t.app, 'karasuno');
    const requests = ledger.requests();
    ledger.setNextFault('fail');
    const tap = await redeem(t.app, token, DEMO_IDS.designs.shelf, randomUUID());
    expect(tap.statusCode, tap.body).toBe(202);
    const pending = redemptionResultSchema.parse(tap.json());
    expect(pending).toMatchObject({ redemption: { state: 'pending' }, balanceAfter: null });
    // Twice more, each time the worker asks again.
    for (let failure = 2; failure <= 3; failure += 1) {
      ledger.setNextFault('fail');
      await expect
        .poll(() => ledger.requests() - requests, { timeout: 60_000, interval: 50 })
        .toBeGreaterThanOrEqual(failure);
    }
    const view = await settled(token, DEMO_IDS.designs.shelf);
    expect(view.viewer.redemption).toMatchObject({ id: pending.redemption.id, state: 'redeemed' });
    expect(view.viewer.balance).toBe(500 - 150);
    expect(ledger.requests() - requests).toBe(4);
    expect(debitsOf('karasuno').map((debit) => debit.key)).toEqual([pending.redemption.id]);
    const row = await t.db
      .selectFrom('redemptions')
      .select(['attempts', 'state', 'last_error'])
      .where('public_id', '=', pending.redemption.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 4, state: 'redeemed', last_error: null });
  });

  it('a charge whose answer is lost is asked again with the same key: one charge', async () => {
    const { ledger } = standInOf(t.app);
    const token = await logIn(t.app, 'yuyuan');
    const before = await pointsOf(t.db, 'yuyuan');
    const requests = ledger.requests();
    ledger.setNextFault('lose_answer');
    const key = randomUUID();
    const tap = await redeem(t.app, token, DEMO_IDS.designs.sakura, key);
    expect(tap.statusCode, tap.body).toBe(202);
    const { redemption } = redemptionResultSchema.parse(tap.json());
    // Charged already, the site not told.
    expect(debitsOf('yuyuan').map((debit) => debit.key)).toEqual([redemption.id]);
    const view = await settled(token, DEMO_IDS.designs.sakura);
    expect(view.viewer.redemption).toMatchObject({ id: redemption.id, state: 'redeemed' });
    expect(ledger.requests() - requests).toBe(2);
    expect(debitsOf('yuyuan')).toHaveLength(1);
    expect(view.viewer.balance).toBe(before.balance - 200);
    expect(chargesOf(t.app, 'yuyuan').balance).toBe(before.balance - 200);
    // A reload or a retried tap shows the same redemption.
    const again = await redeem(t.app, token, DEMO_IDS.designs.sakura, key);
    expect(again.statusCode).toBe(200);
    expect(redemptionResultSchema.parse(again.json()).redemption).toEqual(view.viewer.redemption);
  });

  it('a charge answered with a balance past 2^31 − 1 stays pending, saying why; the repeat completes it', async () => {
    // On PostgreSQL the balance columns are 32-bit: such a balance failed the transaction that
    // writes the answer (SQLite took it), and the redemption stayed leased and unexplained.
    const { ledger } = standInOf(t.app);
    const token = await logIn(t.app, 'beika');
    const before = await pointsOf(t.db, 'beika');
    ledger.setNextFault('huge_balance');
    const tap = await redeem(t.app, token, DEMO_IDS.designs.starry, randomUUID());
    expect(tap.statusCode, tap.body).toBe(202);
    const { redemption } = redemptionResultSchema.parse(tap.json());
    // Read at once: the worker asks again a second later.
    const row = await t.db
      .selectFrom('redemptions')
      .select(['state', 'attempts', 'lease_token', 'last_error'])
      .where('public_id', '=', redemption.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      state: 'pending',
      attempts: 1,
      lease_token: null,
      last_error: expect.stringMatching(
        /^201 with an answer the contract does not allow \(balance: .*2147483647\)$/,
      ) as string,
    });
    expect((await pointsOf(t.db, 'beika')).balance).toBe(before.balance);
    // Asked again with the same key, the platform answers the charge it stored, in range.
    const view = await settled(token, DEMO_IDS.designs.starry);
    expect(view.viewer.redemption).toMatchObject({ id: redemption.id, state: 'redeemed' });
    expect(view.viewer.balance).toBe(before.balance - 300);
    expect(debitsOf('beika')).toHaveLength(1);
  }, 30_000);

  it('a debit asked and not answered goes before the user’s next one: the balance is the newest', async () => {
    // The platform answers a repeat with the balance it had then: were the next debit charged
    // first, the repeat's older balance would be written last (a cluster test met it, a server
    // killed during its debit).
    const { ledger } = standInOf(t.app);
    const token = await logIn(t.app, 'yuyuan');
    const before = await pointsOf(t.db, 'yuyuan');
    ledger.setNextFault('lose_answer');
    const first = await redeem(t.app, token, DEMO_IDS.designs.shelf, randomUUID());
    expect(first.statusCode, first.body).toBe(202);
    const second = await redeem(t.app, token, DEMO_IDS.designs.premium, randomUUID());
    expect([200, 201, 202], second.body).toContain(second.statusCode);
    await settled(token, DEMO_IDS.designs.shelf);
    const view = await settled(token, DEMO_IDS.designs.premium);
    expect(view.viewer.redemption?.state).toBe('redeemed');
    expect(
      debitsOf('yuyuan')
        .slice(-2)
        .map((debit) => [debit.designId, debit.balance]),
    ).toEqual([
      [DEMO_IDS.designs.shelf, before.balance - 150],
      [DEMO_IDS.designs.premium, before.balance - 950],
    ]);
    // The site shows the platform's balance now, not the one the repeat answered.
    expect(view.viewer.balance).toBe(before.balance - 950);
    expect(chargesOf(t.app, 'yuyuan').balance).toBe(before.balance - 950);
    expect((await pointsOf(t.db, 'yuyuan')).balance).toBe(before.balance - 950);
  });
});
