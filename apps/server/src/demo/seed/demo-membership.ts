import { newDemoTransactionId } from '../storekit-signer.ts';
import { insertTransaction, recompute, type Trx } from '../../membership/membership-repository.ts';
import { periodEnd } from '../../membership/plan-period.ts';

/** The demo user who is already a member when a demo server starts (DEMO_IDS.users). */
export const DEMO_MEMBER_KEY = 'satoru';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Makes a demo user a yearly member, bought 20 days before the seed runs. Dated from the real
 * clock, unlike the rest of the demo story, so the member is still a member whenever the demo
 * server is started.
 */
export async function seedDemoMembership(trx: Trx, userId: number, now = new Date()) {
  const purchaseDate = now.getTime() - 20 * DAY_MS;
  const transactionId = newDemoTransactionId();
  await insertTransaction(
    trx,
    {
      transactionId,
      originalTransactionId: transactionId,
      userId,
      productId: 'vip.yearly',
      purchaseDate: new Date(purchaseDate).toISOString(),
      expiresDate: new Date(periodEnd(purchaseDate, 'year')).toISOString(),
      revokedAt: null,
      environment: 'Sandbox',
    },
    now,
  );
  await recompute(trx, userId, now, true);
}
