import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MembershipResponse } from '@guquan/contract/membership';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { runAccountDeletionJob } from '../account-deletion/deletion-job.ts';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import { buildTestAppWithDb, logIn, type TestAppWithDb } from '../test-support/design-test-app.ts';
import { DAY_MS, testAppStore } from '../demo/test-storekit.ts';

/** Signed App Store data that verifies, but says odd things; and a deleted buyer. */
const appStore = testAppStore();
let s: TestAppWithDb;
beforeAll(async () => {
  s = await buildTestAppWithDb();
});
afterAll(() => s.close());

interface Buyer {
  authorization: string;
  token: string;
}

async function buyer(user: DemoUserKey): Promise<Buyer> {
  const authorization = `Bearer ${await logIn(s.app, user)}`;
  const overview = await s.app.inject({
    url: `${API_BASE_PATH}/membership`,
    headers: { authorization },
  });
  return { authorization, token: overview.json<MembershipResponse>().appAccountToken };
}

function sign(who: Buyer, extra: Record<string, unknown> = {}) {
  const purchaseDate = Date.now();
  return appStore.transaction({
    productId: 'vip.monthly',
    appAccountToken: who.token,
    purchaseDate,
    expiresDate: purchaseDate + 30 * DAY_MS,
    extra,
  });
}

const submit = (who: Buyer, signedTransaction: string) =>
  s.app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/membership/transactions`,
    headers: { authorization: who.authorization },
    payload: { signedTransaction },
  });

const notify = (signedPayload: string) =>
  s.app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/app-store/notifications`,
    payload: { signedPayload },
  });

/** Past what a JavaScript date can hold (±8.64e15 ms). */
const OUT_OF_RANGE = [
  ['expiresDate', 1e20],
  ['purchaseDate', -1e20],
  ['revocationDate', 9e15],
  ['signedDate', 1e20],
] as const;

describe('dates a signed payload cannot mean', () => {
  it.each(OUT_OF_RANGE)('refuses a transaction with %s %d with 400', async (field, value) => {
    const who = await buyer('chigu');
    const response = await submit(who, sign(who, { [field]: value }).signedTransaction);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'invalid_transaction',
        message: expect.any(String) as string,
        requestId: expect.any(String) as string,
      },
    });
  });

  it('names such a transaction in a restore and still grants the others', async () => {
    const who = await buyer('conductor');
    const first = sign(who);
    const odd = sign(who, { expiresDate: 1e20 });
    // A renewal of the first (a second subscription bought meanwhile would be refused).
    const last = sign(who, { originalTransactionId: first.transactionId });
    const response = await s.app.inject({
      method: 'POST',
      url: `${API_BASE_PATH}/membership/restore`,
      headers: { authorization: who.authorization },
      payload: {
        signedTransactions: [
          first.signedTransaction,
          odd.signedTransaction,
          last.signedTransaction,
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      accepted: [first.transactionId, last.transactionId],
      rejected: [{ index: 1, code: 'invalid_transaction' }],
    });
  });

  it('acknowledges a notification carrying one, and changes nothing', async () => {
    const who = await buyer('beika');
    const bought = sign(who);
    expect((await submit(who, bought.signedTransaction)).statusCode).toBe(200);
    for (const [field, value] of OUT_OF_RANGE) {
      const renewal = sign(who, { originalTransactionId: bought.transactionId, [field]: value });
      const response = await notify(
        appStore.notification({
          notificationType: 'DID_RENEW',
          signedTransactionInfo: renewal.signedTransaction,
        }),
      );
      expect(response.statusCode, field).toBe(200);
    }
  });
});

describe('notifications for a deleted account', () => {
  it('are acknowledged and bring no membership back', async () => {
    const who = await buyer('yuyuan');
    const bought = sign(who);
    expect((await submit(who, bought.signedTransaction)).statusCode).toBe(200);
    const { id: userId } = await s.db
      .selectFrom('users')
      .select('id')
      .where('public_id', '=', DEMO_IDS.users.yuyuan)
      .executeTakeFirstOrThrow();
    const past = new Date(Date.now() - 31 * DAY_MS).toISOString();
    await s.db
      .insertInto('account_deletion_requests')
      .values({
        user_id: userId,
        requested_at: past,
        deletes_at: past,
        cancelled_at: null,
        cancel_reason: null,
        completed_at: null,
      })
      .execute();
    expect((await runAccountDeletionJob(s.db, new Date())).deleted).toBe(1);
    const transactionsBefore = await s.db
      .selectFrom('app_store_transactions')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();

    for (const notificationType of ['DID_RENEW', 'SUBSCRIBED', 'DID_CHANGE_RENEWAL_STATUS']) {
      const renewal = appStore.transaction({
        productId: 'vip.monthly',
        appAccountToken: who.token,
        originalTransactionId: bought.transactionId,
        purchaseDate: Date.now(),
        expiresDate: Date.now() + 30 * DAY_MS,
      });
      const response = await notify(
        appStore.notification({
          notificationType,
          signedTransactionInfo: renewal.signedTransaction,
        }),
      );
      expect(response.statusCode, notificationType).toBe(200);
    }
    const memberships = await s.db
      .selectFrom('memberships')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(memberships).toEqual([]);
    const transactionsAfter = await s.db
      .selectFrom('app_store_transactions')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(transactionsAfter).toEqual(transactionsBefore);
  });
});
