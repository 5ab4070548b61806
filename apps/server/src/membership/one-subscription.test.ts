import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MembershipResponse,
  PlanPeriod,
  RestoreResponse,
  SubmitTransactionResponse,
} from '@guquan/contract/membership';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { DAY_MS, testAppStore } from '../demo/test-storekit.ts';
import { buildTestAppWithDb, type TestAppWithDb } from '../test-support/design-test-app.ts';
import { standInToken } from '../test-support/test-app.ts';
import { periodEnd } from './plan-period.ts';

/**
 * The one-subscription rule (docs/decisions/0015-one-subscription-per-member.md): at most one
 * original transaction of the group covers any moment of a user's membership, whatever order its
 * transactions reach the server in, by the page, Restore Purchases or the App Store's
 * notifications, one after the other or at once.
 */
const appStore = testAppStore();
let s: TestAppWithDb;
beforeAll(async () => {
  s = await buildTestAppWithDb();
});
afterAll(() => s.close());

interface Buyer {
  id: number;
  authorization: string;
  token: string;
}

let buyers = 0;

/** A user of their own for each case, logged in, with their app account token. */
async function newBuyer(): Promise<Buyer> {
  buyers += 1;
  const publicId = `oneSubscr${String(buyers).padStart(7, '0')}`;
  const { id } = await s.db
    .insertInto('users')
    .values({
      public_id: publicId,
      nickname: `buyer ${String(buyers)}`,
      avatar_image_id: null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = await standInToken(s.app, publicId);
  const authorization = `Bearer ${token}`;
  const overview = await s.app.inject({
    url: `${API_BASE_PATH}/membership`,
    headers: { authorization },
  });
  return { id, authorization, token: overview.json<MembershipResponse>().appAccountToken };
}

interface Bought {
  signedTransaction: string;
  transactionId: string;
  originalTransactionId: string;
  purchaseDate: number;
  expiresDate: number;
  productId: string;
}

const PERIODS: Record<string, PlanPeriod> = {
  'vip.monthly': 'month',
  'vip.quarterly': 'quarter',
  'vip.yearly': 'year',
};

/** A transaction signed by the App Store: a new subscription, or one of `of`'s subscription. */
function buy(
  buyer: Buyer,
  options: {
    purchaseDate: number;
    productId?: string;
    of?: Bought;
    transactionId?: string;
    extra?: Record<string, unknown>;
  },
): Bought {
  const productId = options.productId ?? 'vip.monthly';
  const expiresDate = periodEnd(options.purchaseDate, PERIODS[productId] ?? 'month');
  const signed = appStore.transaction({
    productId,
    appAccountToken: buyer.token,
    purchaseDate: options.purchaseDate,
    expiresDate,
    originalTransactionId: options.of?.originalTransactionId,
    transactionId: options.transactionId,
    extra: options.extra,
  });
  return {
    signedTransaction: signed.signedTransaction,
    transactionId: signed.transactionId,
    originalTransactionId: options.of?.originalTransactionId ?? signed.transactionId,
    purchaseDate: options.purchaseDate,
    expiresDate,
    productId,
  };
}

/** The same transaction, signed again with `extra` (a revocation). */
const resigned = (buyer: Buyer, bought: Bought, extra: Record<string, unknown>) =>
  buy(buyer, { ...bought, of: bought, transactionId: bought.transactionId, extra });

const daysAgo = (days: number) => Date.now() - days * DAY_MS;

type Channel = 'page' | 'restore' | 'notification';
type Outcome = 'granted' | 'refused';

async function viaPage(buyer: Buyer, bought: Bought): Promise<Outcome> {
  const response = await s.app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/membership/transactions`,
    headers: { authorization: buyer.authorization },
    payload: { signedTransaction: bought.signedTransaction },
  });
  if (response.statusCode === 200) {
    expect(response.json<SubmitTransactionResponse>().transactionId).toBe(bought.transactionId);
    return 'granted';
  }
  expect(response.statusCode).toBe(409);
  expect(response.json()).toMatchObject({ error: { code: 'already_subscribed' } });
  return 'refused';
}

async function viaRestore(buyer: Buyer, bought: Bought): Promise<Outcome> {
  const response = await s.app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/membership/restore`,
    headers: { authorization: buyer.authorization },
    payload: { signedTransactions: [bought.signedTransaction] },
  });
  expect(response.statusCode).toBe(200);
  const { accepted, rejected } = response.json<RestoreResponse>();
  if (accepted.length > 0) {
    expect({ accepted, rejected }).toEqual({ accepted: [bought.transactionId], rejected: [] });
    return 'granted';
  }
  expect(rejected).toEqual([{ index: 0, code: 'already_subscribed' }]);
  return 'refused';
}

async function notify(
  bought: Bought,
  notificationType = 'SUBSCRIBED',
  subtype?: string,
): Promise<string> {
  const response = await s.app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/app-store/notifications`,
    payload: {
      signedPayload: appStore.notification({
        notificationType,
        subtype,
        signedTransactionInfo: bought.signedTransaction,
      }),
    },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ outcome: string }>().outcome;
}

async function viaNotification(_buyer: Buyer, bought: Bought): Promise<Outcome> {
  const outcome = await notify(bought, 'SUBSCRIBED', 'INITIAL_BUY');
  expect(['processed', 'ignored']).toContain(outcome);
  return outcome === 'processed' ? 'granted' : 'refused';
}

const SEND: Record<Channel, (buyer: Buyer, bought: Bought) => Promise<Outcome>> = {
  page: viaPage,
  restore: viaRestore,
  notification: viaNotification,
};

const membershipOf = (buyer: Buyer) =>
  s.app
    .inject({ url: `${API_BASE_PATH}/membership`, headers: { authorization: buyer.authorization } })
    .then((response) => response.json<MembershipResponse>().membership);

/** The user's transactions that count (not refunded or revoked), by id. */
async function countingTransactions(buyer: Buyer): Promise<string[]> {
  const rows = await s.db
    .selectFrom('app_store_transactions')
    .select('transaction_id')
    .where('user_id', '=', buyer.id)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((row) => row.transaction_id).sort();
}

/**
 * Exactly `granted` count, and the membership lasts until the last of them ends (refused ones
 * added nothing to it).
 */
async function expectGranted(buyer: Buyer, granted: Bought[]): Promise<void> {
  expect(await countingTransactions(buyer)).toEqual(
    granted.map((bought) => bought.transactionId).sort(),
  );
  const last = Math.max(...granted.map((bought) => bought.expiresDate));
  expect((await membershipOf(buyer)).expiresAt).toBe(new Date(last).toISOString());
}

describe('one subscription of the group covers any moment, whatever the order', () => {
  it('refuses one bought 20 days ago sent through Restore after one bought yesterday (the audit’s case)', async () => {
    const buyer = await newBuyer();
    const newer = buy(buyer, { purchaseDate: daysAgo(1) });
    const older = buy(buyer, { purchaseDate: daysAgo(20) });
    expect(await viaPage(buyer, newer)).toBe('granted');
    const before = await membershipOf(buyer);

    expect(await viaRestore(buyer, older)).toBe('refused');
    expect(await viaPage(buyer, older)).toBe('refused');
    // Both in one restore, as StoreKit may list them: the same answer.
    const both = await s.app.inject({
      method: 'POST',
      url: `${API_BASE_PATH}/membership/restore`,
      headers: { authorization: buyer.authorization },
      payload: { signedTransactions: [newer.signedTransaction, older.signedTransaction] },
    });
    expect(both.json<RestoreResponse>()).toMatchObject({
      accepted: [newer.transactionId],
      rejected: [{ index: 1, code: 'already_subscribed' }],
    });
    // Not 19 days later than the newer alone: the older added nothing.
    expect(await membershipOf(buyer)).toEqual(before);
    await expectGranted(buyer, [newer]);
  });

  it('refuses one bought yesterday after one bought 20 days ago, and still allows the plan changes of the first', async () => {
    const buyer = await newBuyer();
    const older = buy(buyer, { purchaseDate: daysAgo(20) });
    const newer = buy(buyer, { purchaseDate: daysAgo(1) });
    expect(await viaRestore(buyer, older)).toBe('granted');
    expect(await viaPage(buyer, newer)).toBe('refused');
    expect(await viaRestore(buyer, newer)).toBe('refused');
    await expectGranted(buyer, [older]);

    // A plan change keeps the original transaction: granted, overlapping its own subscription.
    const upgrade = buy(buyer, { purchaseDate: Date.now(), productId: 'vip.yearly', of: older });
    expect(await viaPage(buyer, upgrade)).toBe('granted');
    await expectGranted(buyer, [older, upgrade]);
    // The refused subscription's own plan change still overlaps: refused as well.
    const otherUpgrade = buy(buyer, {
      purchaseDate: Date.now(),
      productId: 'vip.yearly',
      of: newer,
    });
    expect(await viaPage(buyer, otherUpgrade)).toBe('refused');
    expect(await notify(otherUpgrade, 'DID_CHANGE_RENEWAL_PREF', 'UPGRADE')).toBe('ignored');
    await expectGranted(buyer, [older, upgrade]);
  });

  it.each([
    ['newer', 'older'],
    ['older', 'newer'],
  ] as const)(
    'ignores the second subscription in the App Store’s notifications (%s first), of every type',
    async (first, second) => {
      const buyer = await newBuyer();
      const bought = {
        newer: buy(buyer, { purchaseDate: daysAgo(1) }),
        older: buy(buyer, { purchaseDate: daysAgo(20) }),
      };
      expect(await notify(bought[first], 'SUBSCRIBED', 'INITIAL_BUY')).toBe('processed');
      for (const [type, subtype] of [
        ['SUBSCRIBED', 'RESUBSCRIBE'],
        ['DID_RENEW', undefined],
        ['DID_CHANGE_RENEWAL_PREF', 'UPGRADE'],
        ['DID_CHANGE_RENEWAL_STATUS', 'AUTO_RENEW_ENABLED'],
        ['EXPIRED', 'VOLUNTARY'],
        ['REFUND_REVERSED', undefined],
      ] as const) {
        expect(await notify(bought[second], type, subtype), type).toBe('ignored');
      }
      // The page and Restore answer the same for it.
      expect(await viaPage(buyer, bought[second])).toBe('refused');
      expect(await viaRestore(buyer, bought[second])).toBe('refused');
      await expectGranted(buyer, [bought[first]]);
    },
  );

  it('ignores a notification of a second subscription after the page granted the first, and the reverse', async () => {
    const pageFirst = await newBuyer();
    const older = buy(pageFirst, { purchaseDate: daysAgo(20) });
    const newer = buy(pageFirst, { purchaseDate: daysAgo(1) });
    expect(await viaPage(pageFirst, newer)).toBe('granted');
    expect(await viaNotification(pageFirst, older)).toBe('refused');
    await expectGranted(pageFirst, [newer]);

    const notificationFirst = await newBuyer();
    const bought = buy(notificationFirst, { purchaseDate: daysAgo(1) });
    const earlier = buy(notificationFirst, { purchaseDate: daysAgo(20) });
    expect(await viaNotification(notificationFirst, bought)).toBe('granted');
    expect(await viaPage(notificationFirst, earlier)).toBe('refused');
    expect(await viaRestore(notificationFirst, earlier)).toBe('refused');
    await expectGranted(notificationFirst, [bought]);
  });

  it('grants exactly one of two subscriptions arriving at once, by any way, in parallel requests', async () => {
    const channels: [Channel, Channel][] = [
      ['page', 'page'],
      ['page', 'restore'],
      ['page', 'notification'],
      ['restore', 'restore'],
      ['restore', 'notification'],
      ['notification', 'notification'],
    ];
    // Days before now each was bought: a newer and an older one either way round, and two
    // bought at the same moment (two Apple IDs).
    const dates = [
      [1, 20],
      [20, 1],
      [3, 3],
    ] as const;
    for (const [firstWay, secondWay] of channels) {
      for (const [firstDays, secondDays] of dates) {
        const buyer = await newBuyer();
        const moment = Date.now();
        const pair = [
          buy(buyer, { purchaseDate: moment - firstDays * DAY_MS }),
          buy(buyer, { purchaseDate: moment - secondDays * DAY_MS }),
        ] as const;
        const outcomes = await Promise.all([
          SEND[firstWay](buyer, pair[0]),
          SEND[secondWay](buyer, pair[1]),
        ]);
        const round = `${firstWay} ${String(firstDays)} / ${secondWay} ${String(secondDays)}`;
        expect([...outcomes].sort(), round).toEqual(['granted', 'refused']);
        await expectGranted(
          buyer,
          pair.filter((_bought, index) => outcomes[index] === 'granted'),
        );
      }
    }
  });

  it.each(['REFUND', 'REVOKE'])(
    'grants the other subscription once the first is gone (%s); the first coming back is ignored',
    async (type) => {
      const buyer = await newBuyer();
      const first = buy(buyer, { purchaseDate: daysAgo(20) });
      const second = buy(buyer, { purchaseDate: daysAgo(1) });
      expect(await viaPage(buyer, first)).toBe('granted');
      expect(await viaPage(buyer, second)).toBe('refused');

      const gone = resigned(buyer, first, { revocationDate: Date.now(), revocationReason: 0 });
      expect(await notify(gone, type)).toBe('processed');
      expect(await countingTransactions(buyer)).toEqual([]);
      expect(await viaRestore(buyer, second)).toBe('granted');
      await expectGranted(buyer, [second]);

      // The App Store reverses the refund: the first would cover the second's days again.
      expect(await notify(first, 'REFUND_REVERSED')).toBe('ignored');
      await expectGranted(buyer, [second]);
    },
  );

  it('grants what covers no moment another subscription covers: one that ended before, a period after', async () => {
    const buyer = await newBuyer();
    const current = buy(buyer, { purchaseDate: daysAgo(20) });
    expect(await viaPage(buyer, current)).toBe('granted');
    // Ended before the current one began: history, granted whenever it comes.
    const ended = buy(buyer, { purchaseDate: daysAgo(100) });
    expect(await viaRestore(buyer, ended)).toBe('granted');
    // One that begins as the current one ends does not overlap it.
    const next = buy(buyer, { purchaseDate: current.expiresDate });
    expect(await viaNotification(buyer, next)).toBe('granted');
    await expectGranted(buyer, [current, ended, next]);

    // One that overlaps any of them by a moment does not.
    for (const overlapping of [
      buy(buyer, { purchaseDate: current.expiresDate - 1 }),
      buy(buyer, { purchaseDate: ended.expiresDate - 1 }),
      buy(buyer, { purchaseDate: daysAgo(200), productId: 'vip.yearly' }),
    ]) {
      expect(await viaPage(buyer, overlapping)).toBe('refused');
      expect(await viaNotification(buyer, overlapping)).toBe('refused');
    }
    await expectGranted(buyer, [current, ended, next]);
  });
});
