import type { Transaction } from 'kysely';
import type { Design, DesignView, RedemptionResult } from '@guquan/contract/design';
import type { Db } from '../db/database.ts';
import { newLease, NO_LEASE } from '../db/leases.ts';
import { newPublicId } from '../db/public-id.ts';
import type { Database } from '../db/schema.ts';
import { imageById, required, userSummaries } from '../db/summaries.ts';
import type { Log } from '../http/logging.ts';
import { sleep } from '../timing/sleep.ts';
import { backgroundDebits, REDEMPTION_ANSWER_WITHIN_MS } from './background-debits.ts';
import type { RequestDebit } from './points-debits.ts';
import {
  askPlatform,
  claimRedemption,
  lockUser,
  REDEMPTION_LEASE_MS,
  userHasDebitAhead,
  redemptionById,
  redemptionResultOf,
  redemptionRows,
  type RedemptionRow,
} from './redemption-debits.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';

/** What asking to redeem a design came to. */
type RedeemOutcome =
  /** Created by this request and charged by the platform. */
  | { state: 'redeemed'; result: RedemptionResult }
  /** The same key came again: the original redemption, charged once. */
  | { state: 'replayed'; result: RedemptionResult }
  /**
   * No answer yet (none within the request's wait, or none at all): the debit goes on in the
   * background, or the platform is asked again with the same key, until it answers.
   */
  | { state: 'pending'; result: RedemptionResult }
  | { state: 'not_found' }
  | { state: 'unavailable' }
  | { state: 'already_redeemed' }
  /** The user is the designer: nobody pays for their own drawing. */
  | { state: 'own_design' }
  /** The platform refused the debit: nothing spent. */
  | { state: 'insufficient_points'; balance: number; pricePoints: number }
  | { state: 'idempotency_key_reused' };

interface DesignRepositoryOptions {
  /** The platform's debit API (points-debits.ts). */
  requestDebit: RequestDebit;
  now?: () => Date;
  /** Where a debit that failed in the background, after its request was answered, is logged. */
  log?: Log;
  /** How long a redemption's request waits for the platform at most (background-debits.ts). */
  answerWithinMs?: number;
}

interface Redeemer {
  /** The user's row id (from the session). */
  userId: number;
  designId: string;
  idempotencyKey: string;
}

type Trx = Transaction<Database>;

/** How the redemption answers: 201 when this request created it, 200 for a repeat of its key. */
type Kinds = { redeemed: 'redeemed' | 'replayed' };

/** The user's points balance: users.points, the platform's (its events and debit answers). */
async function balanceOf(trx: Trx | Db, userId: number): Promise<number> {
  const row = await trx
    .selectFrom('users')
    .select('points')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.points ?? 0;
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

/** What the creating transaction came to. */
type Created =
  /** Without a lease: another debit of the user is in flight; this one asks after it. */
  | { kind: 'created'; id: number; lease: string | undefined }
  | { kind: 'existing'; row: RedemptionRow }
  | { kind: 'refusal'; outcome: RedeemOutcome };

/**
 * Designs and redemptions: the only code that touches those tables. A redemption is created
 * `pending` in one transaction whose every guard is also a database rule, so it holds on
 * PostgreSQL with several servers as it does on SQLite: the unique indexes on (user, design) for
 * what is not refused and on (user, key) refuse a second redemption that slipped past the reads,
 * and the attempt is answered from the row that won. Then the platform, which keeps the balances,
 * is asked to charge it (redemption-debits.ts): the request that created it holds its lease and
 * asks at once, waiting for the answer REDEMPTION_ANSWER_WITHIN_MS at most (then it answers
 * pending and the debit goes on in the background); an unanswered one is asked again by the
 * retry worker (redemption-worker.ts).
 */
export function designRepository(db: Db, options: DesignRepositoryOptions) {
  const now = options.now ?? (() => new Date());
  const answerWithinMs = options.answerWithinMs ?? REDEMPTION_ANSWER_WITHIN_MS;
  const background = backgroundDebits(options.log);

  async function findDesign(publicId: string) {
    return db
      .selectFrom('designs')
      .selectAll()
      .where('public_id', '=', publicId)
      .executeTakeFirst();
  }

  async function createOnce(
    trx: Trx,
    { userId, designId, idempotencyKey }: Redeemer,
  ): Promise<Created> {
    const design = await trx
      .selectFrom('designs')
      .select(['id', 'public_id', 'designer_id', 'price_points', 'retired_at'])
      .where('public_id', '=', designId)
      .executeTakeFirst();
    if (!design) return { kind: 'refusal', outcome: { state: 'not_found' } };
    if (design.designer_id === userId) return { kind: 'refusal', outcome: { state: 'own_design' } };

    const byKey = async (): Promise<Created | undefined> => {
      const found = await redemptionRows(trx)
        .where('redemptions.user_id', '=', userId)
        .where('redemptions.idempotency_key', '=', idempotencyKey)
        .executeTakeFirst();
      if (!found) return undefined;
      return found.design_id === design.id
        ? { kind: 'existing', row: found }
        : { kind: 'refusal', outcome: { state: 'idempotency_key_reused' } };
    };
    const replay = await byKey();
    if (replay) return replay;
    // Who has the drawing keeps it, even once it is retired: "already redeemed" comes first.
    const held = await trx
      .selectFrom('redemptions')
      .select('id')
      .where('user_id', '=', userId)
      .where('design_id', '=', design.id)
      .where('state', '<>', 'refused')
      .executeTakeFirst();
    if (held) {
      // On PostgreSQL each statement sees what was committed before it began: the redemption
      // found here may be a parallel request with this very key that committed after the look-up
      // by key above. Looked up again, it is a replay.
      return (await byKey()) ?? { kind: 'refusal', outcome: { state: 'already_redeemed' } };
    }
    if (design.retired_at !== null) return { kind: 'refusal', outcome: { state: 'unavailable' } };

    const at = now();
    // One debit of a user asked at a time, an asked one answered first (redemption-debits.ts):
    // another one waits.
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
        // This request asks the platform at once: it holds the lease from the start.
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

  async function create(request: Redeemer): Promise<Created> {
    try {
      return await db.transaction().execute((trx) => createOnce(trx, request));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A parallel attempt (same key or same design) committed first and nothing of this one
      // was written: answering again now reads the winner.
      return db.transaction().execute((trx) => createOnce(trx, request));
    }
  }

  /** The answer for a redemption in the state it is in now. */
  async function answerFor(row: RedemptionRow, kinds: Kinds): Promise<RedeemOutcome> {
    switch (row.state) {
      case 'redeemed':
        return { state: kinds.redeemed, result: redemptionResultOf(row) };
      case 'pending':
        return { state: 'pending', result: redemptionResultOf(row) };
      case 'refused':
        return {
          state: 'insufficient_points',
          balance: await balanceOf(db, row.user_id),
          pricePoints: row.price_points,
        };
    }
  }

  /**
   * A pending redemption this request did not start asking about: asked here as soon as its
   * lease is free (the user's other debit answered), or answered once whoever holds it has
   * written the platform's answer (a double tap: the same redemption). Tried every 50 ms until
   * the request's `deadline`; still pending then, it is answered pending.
   */
  async function claimOrWait(id: number, kinds: Kinds, deadline: number): Promise<RedeemOutcome> {
    for (;;) {
      const lease = await claimRedemption(db, id, now());
      if (lease) return askAndAnswer(id, lease, kinds, deadline);
      const row = await redemptionById(db, id);
      if (!row) throw new Error('A redemption just written is gone');
      // Not asked by anyone and not due (its back-off): it stays pending for the worker.
      const waiting =
        row.state === 'pending' &&
        (row.lease_token !== null || (row.next_attempt_at ?? '') <= now().toISOString());
      if (!waiting || Date.now() >= deadline) return answerFor(row, kinds);
      await sleep(50);
    }
  }

  /**
   * Asks the platform about a redemption whose lease we hold, and answers from what it left; at
   * the request's `deadline` without an answer, the redemption is answered pending while the
   * debit goes on in the background (under the same lease, writing the answer when it comes).
   */
  async function askAndAnswer(
    id: number,
    lease: string,
    kinds: Kinds,
    deadline: number,
  ): Promise<RedeemOutcome> {
    const row = await redemptionById(db, id);
    if (!row) throw new Error('A redemption just written is gone');
    await background.settledBy(askPlatform(db, options.requestDebit, row, lease, now), deadline);
    // Read again, whatever the outcome (even a lease lost to another: its answer counts).
    const after = await redemptionById(db, id);
    if (!after) throw new Error('A redemption asked about is gone');
    return answerFor(after, kinds);
  }

  /** The design as the page shows it; the preview only while it is available. */
  async function readDesign(publicId: string): Promise<Design | undefined> {
    const row = await findDesign(publicId);
    if (!row) return undefined;
    const available = row.retired_at === null;
    const [designers, preview] = await Promise.all([
      userSummaries(db, [row.designer_id]),
      available ? imageById(db, row.preview_image_id) : Promise.resolve(undefined),
    ]);
    return {
      id: row.public_id,
      title: row.title,
      designer: required(designers.get(row.designer_id), 'designer'),
      preview: preview ?? null,
      pricePoints: row.price_points,
      available,
      file:
        row.file_format !== null &&
        row.file_width !== null &&
        row.file_height !== null &&
        row.file_bytes !== null
          ? {
              format: row.file_format,
              width: row.file_width,
              height: row.file_height,
              bytes: row.file_bytes,
            }
          : null,
      use: row.use_allowed,
    };
  }

  return {
    findDesign: readDesign,

    /** The design and where the user stands with it; undefined for an unknown design. */
    async view(userId: number, designId: string): Promise<DesignView | undefined> {
      const design = await readDesign(designId);
      if (!design) return undefined;
      return db.transaction().execute(async (trx) => {
        const designRow = await trx
          .selectFrom('designs')
          .select(['id', 'designer_id'])
          .where('public_id', '=', designId)
          .executeTakeFirstOrThrow();
        const redemption = await redemptionRows(trx)
          .where('redemptions.user_id', '=', userId)
          .where('redemptions.design_id', '=', designRow.id)
          .where('redemptions.state', '<>', 'refused')
          .executeTakeFirst();
        return {
          design,
          viewer: {
            balance: await balanceOf(trx, userId),
            redemption: redemption ? redemptionResultOf(redemption).redemption : null,
            ownDesign: designRow.designer_id === userId,
          },
        };
      });
    },

    /**
     * Redeems: creates the redemption, or finds the one of this key, and asks the platform if
     * this request may (it created it, or finds it pending, due and free), answering within
     * `answerWithinMs` whatever the platform does. A pending answer means the platform has not
     * answered yet: the debit goes on in the background, or it will be asked again.
     */
    async redeem(request: Redeemer): Promise<RedeemOutcome> {
      const deadline = Date.now() + answerWithinMs;
      const created = await create(request);
      switch (created.kind) {
        case 'refusal':
          return created.outcome;
        case 'created':
          return created.lease
            ? askAndAnswer(created.id, created.lease, { redeemed: 'redeemed' }, deadline)
            : claimOrWait(created.id, { redeemed: 'redeemed' }, deadline);
        case 'existing': {
          const { row } = created;
          if (row.state !== 'pending') return answerFor(row, { redeemed: 'replayed' });
          return claimOrWait(row.id, { redeemed: 'replayed' }, deadline);
        }
      }
    },

    /** Once every debit still going on in the background has been answered (closing). */
    drain: () => background.drain(),

    balanceOf: (userId: number) => balanceOf(db, userId),

    /** How many designs the user has redeemed or is redeeming (what deleting takes away). */
    async redeemedCount(userId: number): Promise<number> {
      const row = await db
        .selectFrom('redemptions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('state', '<>', 'refused')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type DesignRepository = ReturnType<typeof designRepository>;
