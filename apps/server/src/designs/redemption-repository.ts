import type { RedemptionResult } from '@guquan/contract/design';
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import { leaseFree, newLease, NO_LEASE } from '../db/leases.ts';
import { lockUser } from '../db/locking.ts';
import { newPublicId } from '../db/public-id.ts';
import type { Database, RedemptionRowState } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { errorText } from '../outbox/outbox-repository.ts';
import { backOff } from '../timing/back-off.ts';
import type { DebitAnswer } from './points-debits.ts';

/**
 * Every query of a redemption's way (docs/decisions/0026-points-debits.md): the only code that
 * touches the redemptions table, but for the walks of db/user-data.ts (an account's deletion, the
 * demo's wipe). What is asked of the platform, and when, is redemption-service.ts. A redemption is
 * created `pending` in one transaction whose every guard is also a database rule
 * (`createRedemption`). Only the holder of a redemption's lease asks the platform about it: the
 * lease is taken with one conditional UPDATE (by the request that created the redemption, in its
 * transaction, or by whoever finds it pending, due and free: `claimRedemption`), so thirty taps or
 * two servers make one request at a time. The answer is written only while the lease is still ours
 * (`writeAnswer`). A lease outlives the request's timeout; after a crash it runs out and the next
 * run asks again, with the same key.
 */

type Trx = Transaction<Database>;

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
function redemptionRows(db: Db) {
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

/** The user's redemption of a design (its row id) that is not refused: held, or being paid. */
export async function heldRedemption(
  db: Db,
  userId: number,
  designRowId: number,
): Promise<RedemptionRow | undefined> {
  return redemptionRows(db)
    .where('redemptions.user_id', '=', userId)
    .where('redemptions.design_id', '=', designRowId)
    .where('redemptions.state', '<>', 'refused')
    .executeTakeFirst();
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

/** How many designs the user has redeemed or is redeeming (what deleting takes away). */
export async function redeemedCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('redemptions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('state', '<>', 'refused')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

interface RedemptionRecord {
  userId: number;
  designRowId: number;
  pricePoints: number;
  /** The balance the platform answered to its debit. */
  balanceAfter: number;
  debitId: string | null;
  idempotencyKey: string;
  at: string;
}

/**
 * Writes a redemption the platform has charged already (the demo seed's, spent before the story
 * begins); its public id is returned.
 */
export async function recordRedeemed(trx: Trx, record: RedemptionRecord): Promise<string> {
  const publicId = newPublicId();
  await trx
    .insertInto('redemptions')
    .values({
      public_id: publicId,
      user_id: record.userId,
      design_id: record.designRowId,
      idempotency_key: record.idempotencyKey,
      price_points: record.pricePoints,
      state: 'redeemed',
      balance_after: record.balanceAfter,
      debit_id: record.debitId,
      attempts: 0,
      next_attempt_at: null,
      ...NO_LEASE,
      last_error: null,
      created_at: record.at,
      completed_at: record.at,
    })
    .execute();
  return publicId;
}

/** Who asks to redeem which design, with the page's key. */
export interface Redeemer {
  /** The user's row id (from the session). */
  userId: number;
  designId: string;
  idempotencyKey: string;
}

/** Why no redemption was created or found: the guards of the creating transaction. */
export type RedemptionRefusal =
  'not_found' | 'own_design' | 'already_redeemed' | 'unavailable' | 'idempotency_key_reused';

/** What the creating transaction came to. */
type Created =
  /** Without a lease: another debit of the user is in flight; this one asks after it. */
  | { kind: 'created'; id: number; lease: string | undefined }
  /** The same key came again: its redemption, in whatever state it is. */
  | { kind: 'existing'; row: RedemptionRow }
  | { kind: 'refusal'; refusal: RedemptionRefusal };

/**
 * Creates the redemption `pending`, or finds the one of this key. Every guard is also a database
 * rule, so it holds on PostgreSQL with several servers as it does on SQLite: the unique indexes
 * on (user, design) for what is not refused and on (user, key) refuse a second redemption that
 * slipped past the reads, and the attempt is answered from the row that won. The one created
 * holds its lease from the start, unless another debit of its user comes first.
 */
export async function createRedemption(
  db: Db,
  request: Redeemer,
  now: () => Date,
): Promise<Created> {
  try {
    return await db.transaction().execute((trx) => createOnce(trx, request, now));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A parallel attempt (same key or same design) committed first and nothing of this one
    // was written: answering again now reads the winner.
    return db.transaction().execute((trx) => createOnce(trx, request, now));
  }
}

async function createOnce(
  trx: Trx,
  { userId, designId, idempotencyKey }: Redeemer,
  now: () => Date,
): Promise<Created> {
  const design = await trx
    .selectFrom('designs')
    .select(['id', 'public_id', 'designer_id', 'price_points', 'retired_at'])
    .where('public_id', '=', designId)
    .executeTakeFirst();
  if (!design) return { kind: 'refusal', refusal: 'not_found' };
  if (design.designer_id === userId) return { kind: 'refusal', refusal: 'own_design' };

  const byKey = async (): Promise<Created | undefined> => {
    const found = await redemptionRows(trx)
      .where('redemptions.user_id', '=', userId)
      .where('redemptions.idempotency_key', '=', idempotencyKey)
      .executeTakeFirst();
    if (!found) return undefined;
    return found.design_id === design.id
      ? { kind: 'existing', row: found }
      : { kind: 'refusal', refusal: 'idempotency_key_reused' };
  };
  const replay = await byKey();
  if (replay) return replay;
  // Who has the drawing keeps it, even once it is retired: "already redeemed" comes first.
  if (await heldRedemption(trx, userId, design.id)) {
    // On PostgreSQL each statement sees what was committed before it began: the redemption
    // found here may be a parallel request with this very key that committed after the look-up
    // by key above. Looked up again, it is a replay.
    return (await byKey()) ?? { kind: 'refusal', refusal: 'already_redeemed' };
  }
  if (design.retired_at !== null) return { kind: 'refusal', refusal: 'unavailable' };

  const at = now();
  // One debit of a user asked at a time, an asked one answered first: another one waits. The
  // user's row is locked (db/locking.ts) so that two servers deciding whether the user has a
  // debit in flight decide one after the other.
  await lockUser(trx, userId);
  const lease = (await userHasDebitAhead(trx, userId, at.toISOString()))
    ? undefined
    : newLease(at, REDEMPTION_LEASE_MS);
  const created = await trx
    .insertInto('redemptions')
    .values({
      public_id: newPublicId(),
      user_id: userId,
      design_id: design.id,
      idempotency_key: idempotencyKey,
      price_points: design.price_points,
      state: 'pending',
      balance_after: null,
      debit_id: null,
      attempts: 0,
      next_attempt_at: at.toISOString(),
      // The request that creates it asks the platform at once: it holds the lease from the start.
      lease_token: lease?.token ?? null,
      lease_until: lease?.until ?? null,
      last_error: null,
      created_at: at.toISOString(),
      completed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { kind: 'created', id: created.id, lease: lease?.token };
}

/**
 * Whether another debit of the user comes before this one. A user's debits are asked one at a
 * time, and one already asked (being asked now, asked by a server that died, or asked and not
 * answered) is asked again, and answered, before any other is asked: the platform answers a
 * repeat with the balance it had then, which is the newest only while nothing was charged since.
 * `candidate`: the redemption about to be asked, and whether it was asked before (none: one
 * being created). Of two asked ones (left by an older version of this rule), the older goes first.
 */
async function userHasDebitAhead(
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

/** Pending redemptions that are due at `at` (their back-off over) and free: the oldest first. */
export async function dueRedemptions(db: Db, at: Date, limit: number): Promise<number[]> {
  const iso = at.toISOString();
  const due = await db
    .selectFrom('redemptions')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', iso)
    .where(leaseFree<'redemptions'>('lease_until', iso))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  return due.map(({ id }) => id);
}

/** What writing an answer came to: the state it left, or `lost` when the lease had gone. */
export type AnswerWritten = RedemptionRowState | 'lost';

/**
 * Writes the platform's answer about `row`, whose lease `token` the caller holds, and gives the
 * lease back: redeemed with the platform's balance (users.points takes it too), refused, or
 * still pending, due again after the back-off. Nothing is written once the lease is another's.
 */
export async function writeAnswer(
  db: Db,
  row: Pick<RedemptionRow, 'id' | 'user_id'>,
  token: string,
  answer: DebitAnswer,
  at: Date,
): Promise<AnswerWritten> {
  return db.transaction().execute(async (trx) => {
    // The user first, as claiming and creating lock it: the same order everywhere, so two
    // servers' transactions (one answering, one claiming) never wait on each other in a circle.
    await lockUser(trx, row.user_id);
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
