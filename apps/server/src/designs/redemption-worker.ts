import type { Db } from '../db/database.ts';
import { leaseFree } from '../db/leases.ts';
import type { Log } from '../http/logging.ts';
import type { RequestDebit } from './points-debits.ts';
import { askPlatform, claimRedemption, redemptionById } from './redemption-debits.ts';

/**
 * The retry worker: every server looks each second for pending redemptions that are due (their
 * back-off over, nobody holding their lease) and asks the platform again with the same key. The
 * lease makes one server at a time ask about each; after a crash the dead server's lease runs
 * out and whichever server is alive asks.
 */
export const REDEMPTION_WORKER_INTERVAL_MS = 1_000;
/** How many redemptions one run asks about at most (at once: each waits on the platform). */
const BATCH = 20;

interface RetryReport {
  asked: number;
  redeemed: number;
  refused: number;
  /** Still pending: asked again after the back-off. */
  pending: number;
}

export async function retryDueRedemptions(
  db: Db,
  requestDebit: RequestDebit,
  { now = () => new Date(), log }: { now?: () => Date; log?: Log } = {},
): Promise<RetryReport> {
  const at = now().toISOString();
  const due = await db
    .selectFrom('redemptions')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where(leaseFree<'redemptions'>('lease_until', at))
    .orderBy('next_attempt_at')
    .limit(BATCH)
    .execute();
  const report: RetryReport = { asked: 0, redeemed: 0, refused: 0, pending: 0 };
  await Promise.all(
    due.map(async ({ id }) => {
      const lease = await claimRedemption(db, id, now());
      if (!lease) return; // another server has it
      const row = await redemptionById(db, id);
      if (!row) return;
      report.asked += 1;
      const outcome = await askPlatform(db, requestDebit, row, lease, now);
      if (outcome === 'redeemed') report.redeemed += 1;
      else if (outcome === 'refused') report.refused += 1;
      else if (outcome === 'pending') {
        report.pending += 1;
        log?.warn(
          { redemption: row.public_id, attempts: row.attempts + 1 },
          'the platform did not answer a debit; it will be asked again',
        );
      }
    }),
  );
  return report;
}
