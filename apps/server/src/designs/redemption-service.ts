import type { RedemptionResult } from '@guquan/contract/design';
import type { Db } from '../db/database.ts';
import type { Log } from '../http/logging.ts';
import { sleep } from '../timing/sleep.ts';
import { backgroundDebits, REDEMPTION_ANSWER_WITHIN_MS } from './background-debits.ts';
import { balanceOf } from './design-repository.ts';
import type { DebitRequest, RequestDebit } from './points-debits.ts';
import {
  claimRedemption,
  createRedemption,
  dueRedemptions,
  redemptionById,
  redemptionResultOf,
  writeAnswer,
  type AnswerWritten,
  type Redeemer,
  type RedemptionRow,
} from './redemption-repository.ts';

/**
 * Redeeming a design with points the platform keeps (docs/decisions/0026-points-debits.md), top
 * to bottom: the redemption is created `pending` (or found again by its key), the platform is
 * asked to charge it by whoever holds its lease, and the request answers from the row as the
 * platform's answer left it, within `answerWithinMs` whatever the platform does. A redemption
 * still pending then goes on in the background (background-debits.ts), or is asked again, with
 * the same key, by the retry worker (`retryDue`), which every server runs each second. The
 * database's side, the guards and the lease, is redemption-repository.ts.
 */

export const REDEMPTION_WORKER_INTERVAL_MS = 1_000;
/** How many redemptions one run of the worker asks about at most (at once: each waits). */
const WORKER_BATCH = 20;
/** How often a request waiting for another's debit looks again. */
const WAIT_STEP_MS = 50;

/** What asking to redeem a design came to. */
export type RedeemOutcome =
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

/** How a charged redemption answers: 201 when this request created it, 200 for a repeat. */
type Charged = 'redeemed' | 'replayed';

interface RetryReport {
  asked: number;
  redeemed: number;
  refused: number;
  /** Still pending: asked again after the back-off. */
  pending: number;
}

interface RedemptionServiceOptions {
  /** The platform's debit API (points-debits.ts). */
  requestDebit: RequestDebit;
  now?: () => Date;
  /** Where a debit the platform did not answer, or one that failed in the background, is logged. */
  log?: Log;
  /** How long a redemption's request waits for the platform at most (background-debits.ts). */
  answerWithinMs?: number;
}

export function redemptionService(db: Db, options: RedemptionServiceOptions) {
  const { requestDebit, log } = options;
  const now = options.now ?? (() => new Date());
  const answerWithinMs = options.answerWithinMs ?? REDEMPTION_ANSWER_WITHIN_MS;
  const background = backgroundDebits(log);

  /**
   * Redeems: creates the redemption, or finds the one of this key, and asks the platform if
   * this request may (it created it, or finds it pending, due and free), answering within
   * `answerWithinMs` whatever the platform does. A pending answer means the platform has not
   * answered yet: the debit goes on in the background, or it will be asked again.
   */
  async function redeem(request: Redeemer): Promise<RedeemOutcome> {
    const deadline = Date.now() + answerWithinMs;
    const created = await createRedemption(db, request, now);
    switch (created.kind) {
      case 'refusal':
        return { state: created.refusal };
      case 'created': {
        const row = created.lease
          ? await askWithin(created.id, created.lease, deadline)
          : await claimOrWait(created.id, deadline);
        return answerFor(row, 'redeemed');
      }
      case 'existing': {
        const { row } = created;
        return answerFor(
          row.state === 'pending' ? await claimOrWait(row.id, deadline) : row,
          'replayed',
        );
      }
    }
  }

  /**
   * A pending redemption this request did not start asking about: asked here as soon as its
   * lease is free (the user's other debit answered), or read once whoever holds it has written
   * the platform's answer (a double tap: the same redemption). Tried every 50 ms until the
   * request's `deadline`; the row as it is then, pending or not.
   */
  async function claimOrWait(id: number, deadline: number): Promise<RedemptionRow> {
    for (;;) {
      const lease = await claimRedemption(db, id, now());
      if (lease) return askWithin(id, lease, deadline);
      const row = await read(id, 'A redemption just written is gone');
      // Not asked by anyone and not due (its back-off): it stays pending for the worker.
      const waiting =
        row.state === 'pending' &&
        (row.lease_token !== null || (row.next_attempt_at ?? '') <= now().toISOString());
      if (!waiting || Date.now() >= deadline) return row;
      await sleep(WAIT_STEP_MS);
    }
  }

  /**
   * Asks the platform about a redemption whose lease we hold, waiting for it until the request's
   * `deadline` at most; the row as the answer left it, or still pending while the debit goes on
   * in the background (under the same lease, writing the answer when it comes).
   */
  async function askWithin(id: number, lease: string, deadline: number): Promise<RedemptionRow> {
    const row = await read(id, 'A redemption just written is gone');
    await background.settledBy(ask(row, lease), deadline);
    // Read again, whatever the outcome (even a lease lost to another: its answer counts).
    return read(id, 'A redemption asked about is gone');
  }

  /** Asks the platform to charge `row`, whose lease we hold, and writes what it answered. */
  async function ask(row: RedemptionRow, lease: string): Promise<AnswerWritten> {
    const answer = await requestDebit(debitOf(row));
    return writeAnswer(db, row, lease, answer, now());
  }

  /** The answer for a redemption in the state it is in now. */
  async function answerFor(row: RedemptionRow, charged: Charged): Promise<RedeemOutcome> {
    switch (row.state) {
      case 'redeemed':
        return { state: charged, result: redemptionResultOf(row) };
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

  async function read(id: number, gone: string): Promise<RedemptionRow> {
    const row = await redemptionById(db, id);
    if (!row) throw new Error(gone);
    return row;
  }

  /**
   * The retry worker's run: pending redemptions that are due (their back-off over, nobody
   * holding their lease) are asked about again with the same key. The lease makes one server at
   * a time ask about each; after a crash the dead server's lease runs out and whichever server is
   * alive asks.
   */
  async function retryDue(): Promise<RetryReport> {
    const due = await dueRedemptions(db, now(), WORKER_BATCH);
    const report: RetryReport = { asked: 0, redeemed: 0, refused: 0, pending: 0 };
    await Promise.all(
      due.map(async (id) => {
        const lease = await claimRedemption(db, id, now());
        if (!lease) return; // another server has it
        const row = await redemptionById(db, id);
        if (!row) return;
        report.asked += 1;
        const written = await ask(row, lease);
        if (written === 'redeemed') report.redeemed += 1;
        else if (written === 'refused') report.refused += 1;
        else if (written === 'pending') {
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

  return {
    redeem,
    retryDue,
    /** Once every debit still going on in the background has been answered (closing). */
    drain: () => background.drain(),
  };
}

export type RedemptionService = ReturnType<typeof redemptionService>;

/** The debit asked for a redemption: its public id is the key, the same at every retry. */
function debitOf(row: RedemptionRow): DebitRequest {
  return {
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
  };
}
