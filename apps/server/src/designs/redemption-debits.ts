import type { RedemptionResult } from '@guquan/contract/design';
import { sql } from 'kysely';
import { isPostgres, type Db } from '../db/database.ts';
import { leaseFree, newLease, NO_LEASE } from '../db/leases.ts';
import type { RedemptionRowState } from '../db/schema.ts';
import { errorText } from '../outbox/outbox-repository.ts';
import { backOff } from '../timing/back-off.ts';
import type { RequestDebit } from './points-debits.ts';

/**
 * Asking the platform to charge a redemption, and keeping its answer (docs/decisions/
 * 0026-points-debits.md). Only the holder of a redemption's lease asks: the lease is taken with
 * one conditional UPDATE (by the request that created the redemption, in its transaction, or by
 * whoever finds it pending, due and free), so thirty taps or two servers make one request at a
 * time. The answer is written only while the lease is still ours. A lease outlives the request's
 * timeout; after a crash it runs out and the next run asks again, with the same key.
 */

/** Longer than a debit request may take (DEBIT_TIMEOUT_MS), so a live holder never loses it. */
export const REDEMPTION_LEASE_MS = 15_000;
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 60_000;

/** The wait before asking again after `attempts` unanswered requests: 1 s doubling to 1 min. */
export function retryWaitMs(attempts: number): number {
  return backOff({ attempt: attempts, firstMs: FIRST_WAIT_MS, maxMs: LONGEST_WAIT_MS });
}

/** A redemption as the platform is asked about it and the API answers it. */
export interface RedemptionRow {
  id: number;
  public_id: string;
  user_id: number;
  user_public_id: string;
  design_id: number;
  design_public_id: string;
  idempotency_key: string;
  price_points: number;
  state: RedemptionRowState;
  balance_after: number | null;
  attempts: number;
  next_attempt_at: string | null;
  lease_token: string | null;
  lease_until: string | null;
  created_at: string;
  completed_at: string | null;
}

/** The redemptions with what the API and the platform name them by. */
export function redemptionRows(db: Db) {
  return db
    .selectFrom('redemptions')
    .innerJoin('designs', 'designs.id', 'redemptions.design_id')
    .innerJoin('users', 'users.id', 'redemptions.user_id')
    .select([
      'redemptions.id',
      'redemptions.public_id',
      'redemptions.user_id',
      'users.public_id as user_public_id',
      'redemptions.design_id',
      'designs.public_id as design_public_id',
      'redemptions.idempotency_key',
      'redemptions.price_points',
      'redemptions.state',
      'redemptions.balance_after',
      'redemptions.attempts',
      'redemptions.next_attempt_at',
      'redemptions.lease_token',
      'redemptions.lease_until',
      'redemptions.created_at',
      'redemptions.completed_at',
    ]);
}

export async function redemptionById(db: Db, id: number): Promise<RedemptionRow | undefined> {
  return redemptionRows(db).where('redemptions.id', '=', id).executeTakeFirst();
}

/** The API's view of a redemption that is not refused. */
export function redemptionResultOf(row: RedemptionRow): RedemptionResult {
  const redeemed = row.state === 'redeemed';
  return {
    redemption: {
      id: row.public_id,
      designId: row.design_public_id,
      pricePoints: row.price_points,
      state: redeemed ? 'redeemed' : 'pending',
      requestedAt: row.created_at,
      redeemedAt: redeemed ? row.completed_at : null,
    },
    balanceAfter: redeemed ? row.balance_after : null,
  };
}

/**
 * Locks the user's row until the transaction ends (PostgreSQL; SQLite runs one transaction at a
 * time anyway), so that two servers deciding whether the user has a debit in flight decide one
 * after the other.
 */
export async function lockUser(trx: Db, userId: number): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select id from users where id = ${userId} for update`.execute(trx);
}

/**
 * Whether another debit of the user comes before this one. A user's debits are asked one at a
 * time, and one already asked (being asked now, asked by a server that died, or asked and not
 * answered) is asked again, and answered, before any other is asked: the platform answers a
 * repeat with the balance it had then, which is the newest only while nothing was charged since.
 * `candidate`: the redemption about to be asked, and whether it was asked before (none: one
 * being created). Of two asked ones (left by an older version of this rule), the older goes first.
 */
export async function userHasDebitAhead(
  trx: Db,
  userId: number,
  at: string,
  candidate?: { id: number; asked: boolean },
): Promise<boolean> {
  let query = trx
    .selectFrom('redemptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('lease_token', 'is not', null), eb('attempts', '>', 0)]));
  if (candidate !== undefined) {
    query = query.where('id', '<>', candidate.id);
    if (candidate.asked) {
      query = query.where((eb) => eb.or([eb('id', '<', candidate.id), eb('lease_until', '>', at)]));
    }
  }
  return (await query.executeTakeFirst()) !== undefined;
}

/** Whether a redemption may have reached the platform: it was asked, or is being asked. */
function wasAsked(row: { lease_token: string | null; attempts: number }): boolean {
  return row.lease_token !== null || row.attempts > 0;
}

/**
 * Takes the lease of a pending redemption that is due and free, unless another debit of its user
 * comes first (userHasDebitAhead); its token, or undefined.
 */
export async function claimRedemption(db: Db, id: number, now: Date): Promise<string | undefined> {
  const at = now.toISOString();
  const lease = newLease(now, REDEMPTION_LEASE_MS);
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('redemptions')
      .select(['user_id', 'lease_token', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) return undefined;
    await lockUser(trx, found.user_id);
    // Read again under the lock: another server may have asked it meanwhile.
    const row = await trx
      .selectFrom('redemptions')
      .select(['lease_token', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (await userHasDebitAhead(trx, found.user_id, at, { id, asked: wasAsked(row) })) {
      return undefined;
    }
    const result = await trx
      .updateTable('redemptions')
      .set({ lease_token: lease.token, lease_until: lease.until })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', at)
      .where(leaseFree<'redemptions'>('lease_until', at))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? lease.token : undefined;
  });
}

/** What asking came to: the state it left, or `lost` when the lease had gone to another. */
type AskResult = RedemptionRowState | 'lost';

/**
 * Asks the platform to charge `row` (whose lease `token` this caller holds) and writes the
 * answer: redeemed with the platform's balance (users.points takes it too), refused, or still
 * pending, due again after the back-off.
 */
export async function askPlatform(
  db: Db,
  requestDebit: RequestDebit,
  row: RedemptionRow,
  token: string,
  now: () => Date = () => new Date(),
): Promise<AskResult> {
  const answer = await requestDebit({
    key: row.public_id,
    body: {
      userId: row.user_public_id,
      points: row.price_points,
      reason: {
        kind: 'design_redemption',
        designId: row.design_public_id,
        redemptionId: row.public_id,
      },
    },
  });
  const at = now();
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('redemptions')
      .select('attempts')
      .where('id', '=', row.id)
      .where('lease_token', '=', token)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (!current) return 'lost';
    const ours = trx
      .updateTable('redemptions')
      .where('id', '=', row.id)
      .where('lease_token', '=', token);
    const attempts = current.attempts + 1;
    const done = { attempts, ...NO_LEASE, completed_at: at.toISOString() };
    switch (answer.kind) {
      case 'charged':
        await ours
          .set({
            ...done,
            state: 'redeemed',
            balance_after: answer.balance,
            debit_id: answer.debitId,
            next_attempt_at: null,
            last_error: null,
          })
          .execute();
        // The balance shown is the platform's: its answer is the newest word on it.
        await trx
          .updateTable('users')
          .set({ points: answer.balance })
          .where('id', '=', row.user_id)
          .execute();
        return 'redeemed';
      case 'insufficient_points':
        await ours
          .set({ ...done, state: 'refused', next_attempt_at: null, last_error: null })
          .execute();
        return 'refused';
      case 'unknown':
        await ours
          .set({
            attempts,
            ...NO_LEASE,
            next_attempt_at: new Date(at.getTime() + retryWaitMs(attempts)).toISOString(),
            last_error: errorText(answer.reason),
          })
          .execute();
        return 'pending';
    }
  });
}
