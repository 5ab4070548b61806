import { plantFailingTrigger, removeFailingTrigger } from '../test-support/failing-trigger.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../auth/user-authenticator.ts';
import { DEMO_BUNDLE_ID } from '../config/env.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { createAppStoreVerifier } from './app-store-verifier.ts';
import { membershipService, type MembershipService } from './membership-service.ts';
import { loadCertificateChain } from '../demo/test-chain.ts';
import { DAY_MS, testAppStore } from '../demo/test-storekit.ts';
import { X509Certificate } from 'node:crypto';

let data: TestDatabase;
let service: MembershipService;
let user: AuthUser;
const appStore = testAppStore();

beforeEach(async () => {
  data = await openTestDatabase({ seed: false });
  const verifier = createAppStoreVerifier(
    {
      bundleId: DEMO_BUNDLE_ID,
      environment: 'Sandbox',
      appAppleId: undefined,
      rootCertsDir: undefined,
    },
    [new X509Certificate(loadCertificateChain().root).raw],
  );
  service = membershipService({ db: data.db, verifier });
  const row = await data.db
    .insertInto('users')
    .values({
      public_id: 'AAAAAAAAAAAAAAAA',
      nickname: 'buyer',
      avatar_image_id: null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  user = { id: row.id, publicId: 'AAAAAAAAAAAAAAAA' };
});
afterEach(() => data.close());

async function snapshot() {
  const { db } = data;
  return {
    transactions: await db.selectFrom('app_store_transactions').selectAll().orderBy('id').execute(),
    memberships: await db.selectFrom('memberships').selectAll().execute(),
    notifications: await db.selectFrom('app_store_notifications').selectAll().execute(),
  };
}

/** A transaction of a new subscription, or of the one `originalTransactionId` began. */
async function purchase(days = 30, originalTransactionId?: string, productId = 'vip.monthly') {
  const { appAccountToken } = await service.overview(user);
  const now = Date.now();
  return appStore.transaction({
    productId,
    appAccountToken,
    purchaseDate: now,
    expiresDate: now + days * DAY_MS,
    originalTransactionId,
  });
}

/** The platform's `membership.changed` events queued in the outbox, in order. */
async function membershipEvents() {
  const rows = await data.db
    .selectFrom('outbox')
    .select('payload')
    .where('kind', '=', 'membership.changed')
    .orderBy('id')
    .execute();
  return rows.map(
    (row) =>
      (JSON.parse(row.payload ?? '{}') as { data: { version: number; plan: string | null } }).data,
  );
}

describe('membershipService', () => {
  it('queues membership.changed with each change, in its transaction, its version rising', async () => {
    const first = await purchase(30);
    await service.submit(user, first.signedTransaction);
    // A replay changes nothing: no event.
    await service.submit(user, first.signedTransaction);
    expect(await membershipEvents()).toEqual([
      {
        userId: user.publicId,
        plan: 'vip.monthly',
        expiresAt: expect.any(String) as string,
        autoRenew: true,
        version: 1,
      },
    ]);
    // A change that fails writes no event either.
    await plantFailingTrigger(data.db, {
      name: 'kill_update',
      table: 'memberships',
      event: 'update',
      message: 'killed half-way',
    });
    const renewal = await purchase(60, first.transactionId);
    await expect(service.submit(user, renewal.signedTransaction)).rejects.toThrow(/killed/);
    expect(await membershipEvents()).toHaveLength(1);
    await removeFailingTrigger(data.db, { name: 'kill_update', table: 'memberships' });
    await service.submit(user, renewal.signedTransaction);
    expect((await membershipEvents()).map((event) => event.version)).toEqual([1, 2]);
  });

  it('grants a transaction sent many times, and in parallel, exactly once', async () => {
    const { signedTransaction } = await purchase();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => service.submit(user, signedTransaction)),
    );
    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
    const after = await snapshot();
    expect(after.transactions).toHaveLength(1);
    expect(after.memberships).toHaveLength(1);
    await service.submit(user, signedTransaction);
    expect(await snapshot()).toEqual(after);
  });

  it('keeps the latest expiry when purchases of one user are granted at the same time', async () => {
    // Each grant recomputes the membership from the user's transactions: in parallel (several
    // servers, several connections) the last to write must have seen all the others.
    // Transactions of one subscription (renewals, plan changes): a second one would be refused.
    const purchases = await Promise.all(
      [10, 40, 20, 90, 30, 60].map((days) => purchase(days, '2000000999999999')),
    );
    await Promise.all(purchases.map((bought) => service.submit(user, bought.signedTransaction)));
    const { transactions, memberships } = await snapshot();
    expect(transactions).toHaveLength(6);
    const latest = transactions.map((row) => row.expires_date).sort((a, b) => a.localeCompare(b));
    expect(memberships).toEqual([expect.objectContaining({ expires_at: latest.at(-1) })]);
  });

  it('leaves nothing half-done when a grant dies inside its database transaction', async () => {
    const earlier = await purchase(10);
    await service.submit(user, earlier.signedTransaction);
    const before = await snapshot();
    // The membership write fails after the transaction row went in: as if the server died there.
    for (const event of ['insert', 'update'] as const) {
      await plantFailingTrigger(data.db, {
        name: `kill_${event}`,
        table: 'memberships',
        event,
        message: 'killed half-way',
      });
    }
    const later = await purchase(60, earlier.transactionId);
    await expect(service.submit(user, later.signedTransaction)).rejects.toThrow(/killed half-way/);
    expect(await snapshot()).toEqual(before);

    // Once the server is back, the same transaction (still unfinished in the app) is granted.
    await removeFailingTrigger(data.db, { name: 'kill_insert', table: 'memberships' });
    await removeFailingTrigger(data.db, { name: 'kill_update', table: 'memberships' });
    const granted = await service.submit(user, later.signedTransaction);
    expect(granted.transactionId).toBe(later.transactionId);
    expect((await snapshot()).transactions).toHaveLength(2);
  });

  it('leaves nothing half-done when a notification dies half-way, and handles it when sent again', async () => {
    const first = await purchase(10);
    await service.submit(user, first.signedTransaction);
    const before = await snapshot();
    await plantFailingTrigger(data.db, {
      name: 'kill_update',
      table: 'memberships',
      event: 'update',
      message: 'killed half-way',
    });
    const { appAccountToken } = await service.overview(user);
    const renewal = appStore.transaction({
      productId: 'vip.monthly',
      appAccountToken,
      originalTransactionId: first.transactionId,
      purchaseDate: Date.now() + 10 * DAY_MS,
      expiresDate: Date.now() + 40 * DAY_MS,
    });
    const notification = appStore.notification({
      notificationType: 'DID_RENEW',
      signedTransactionInfo: renewal.signedTransaction,
    });
    await expect(service.notification(notification)).rejects.toThrow(/killed half-way/);
    expect(await snapshot()).toEqual(before);
    await removeFailingTrigger(data.db, { name: 'kill_update', table: 'memberships' });
    expect(await service.notification(notification)).toBe('processed');
    expect(await service.notification(notification)).toBe('duplicate');
    expect((await snapshot()).notifications).toHaveLength(1);
  });

  describe('one subscription group: plan changes, never a second purchase', () => {
    it('refuses a second subscription bought while one is active, and extends nothing', async () => {
      const first = await purchase(300, undefined, 'vip.yearly');
      await service.submit(user, first.signedTransaction);
      const before = await snapshot();
      // Another original transaction, bought 20 days into the year: what the page once sold.
      const second = await purchase(365, undefined, 'vip.yearly');
      await expect(service.submit(user, second.signedTransaction)).rejects.toMatchObject({
        code: 'already_subscribed',
        status: 409,
      });
      expect(await snapshot()).toEqual(before);
      // Restore sends it too: refused there as well, with its reason.
      const restored = await service.restore(user, [
        first.signedTransaction,
        second.signedTransaction,
      ]);
      expect(restored.accepted).toEqual([first.transactionId]);
      expect(restored.rejected).toEqual([{ index: 1, code: 'already_subscribed' }]);
      expect(await snapshot()).toEqual(before);
    });

    it('accepts a new subscription once the first has ended', async () => {
      const { appAccountToken } = await service.overview(user);
      const now = Date.now();
      const ended = appStore.transaction({
        productId: 'vip.monthly',
        appAccountToken,
        purchaseDate: now - 40 * DAY_MS,
        expiresDate: now - 10 * DAY_MS,
      });
      await service.submit(user, ended.signedTransaction);
      const again = await purchase(30);
      const granted = await service.submit(user, again.signedTransaction);
      expect(granted.membership.status).toBe('active');
    });

    it('grants an upgrade (a new transaction of the same subscription) at once', async () => {
      const monthly = await purchase(30);
      await service.submit(user, monthly.signedTransaction);
      const yearly = await purchase(365, monthly.transactionId, 'vip.yearly');
      const { membership } = await service.submit(user, yearly.signedTransaction);
      expect(membership).toMatchObject({ status: 'active', productId: 'vip.yearly' });
      expect(Date.parse(membership.expiresAt ?? '')).toBeGreaterThan(Date.now() + 300 * DAY_MS);
    });

    it('keeps a downgrade for the renewal: the renewal info names the plan, nothing is added', async () => {
      const yearly = await purchase(300, undefined, 'vip.yearly');
      const granted = await service.submit(user, yearly.signedTransaction);
      expect(granted.membership.renewalProductId).toBeNull();
      const renewal = appStore.renewalInfo({
        originalTransactionId: yearly.transactionId,
        autoRenewProductId: 'vip.monthly',
        autoRenewStatus: 1,
      });
      // StoreKit hands back the current transaction with the renewal info.
      const { membership } = await service.submit(user, yearly.signedTransaction, renewal);
      expect(membership).toMatchObject({
        productId: 'vip.yearly',
        expiresAt: granted.membership.expiresAt,
        renewalProductId: 'vip.monthly',
        autoRenew: true,
      });
      expect((await snapshot()).transactions).toHaveLength(1);

      // Renewal info of another subscription is not this one's.
      const foreign = appStore.renewalInfo({
        originalTransactionId: '2000000123123123',
        autoRenewProductId: 'vip.quarterly',
        autoRenewStatus: 1,
      });
      await expect(service.submit(user, yearly.signedTransaction, foreign)).rejects.toMatchObject({
        code: 'invalid_transaction',
      });
      expect((await service.overview(user)).membership.renewalProductId).toBe('vip.monthly');
    });

    it('learns a downgrade from the App Store notification, and ignores a second subscription there', async () => {
      const yearly = await purchase(300, undefined, 'vip.yearly');
      await service.submit(user, yearly.signedTransaction);
      const downgrade = appStore.notification({
        notificationType: 'DID_CHANGE_RENEWAL_PREF',
        subtype: 'DOWNGRADE',
        signedTransactionInfo: yearly.signedTransaction,
        signedRenewalInfo: appStore.renewalInfo({
          originalTransactionId: yearly.transactionId,
          autoRenewProductId: 'vip.quarterly',
          autoRenewStatus: 1,
        }),
      });
      expect(await service.notification(downgrade)).toBe('processed');
      expect((await service.overview(user)).membership.renewalProductId).toBe('vip.quarterly');

      const before = await snapshot();
      const second = await purchase(365, undefined, 'vip.yearly');
      const subscribed = appStore.notification({
        notificationType: 'SUBSCRIBED',
        signedTransactionInfo: second.signedTransaction,
      });
      expect(await service.notification(subscribed)).toBe('ignored');
      const after = await snapshot();
      expect(after.transactions).toEqual(before.transactions);
      expect(after.memberships).toEqual(before.memberships);
    });
  });
});
