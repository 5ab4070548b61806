import { insertTransaction, recompute, type Trx } from '../../membership/membership-repository.ts';
import { periodEnd } from '../../membership/plan-period.ts';

/** The demo user who is already a member when a demo server starts (DEMO_IDS.users). */
export const DEMO_MEMBER_KEY = 'satoru';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The demo membership's App Store transaction, fixed: a second seeding (another server of the
 * cluster that also found its copy empty) finds it there and writes nothing.
 */
export const DEMO_MEMBER_TRANSACTION_ID = '2000000000000001';

/**
 * Makes a demo user a yearly member, bought 20 days before the seed runs. Dated from the real
 * clock, unlike the rest of the demo story, so the member is still a member whenever the demo
 * server is started. False when the membership is there already (nothing written).
 */
export async function seedDemoMembership(
  trx: Trx,
  userId: number,
  now = new Date(),
): Promise<boolean> {
  const purchaseDate = now.getTime() - 20 * DAY_MS;
  const transactionId = DEMO_MEMBER_TRANSACTION_ID;
  const inserted = await insertTransaction(
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
  if (!inserted) return false;
  await recompute(trx, userId, now, true);
  return true;
}
