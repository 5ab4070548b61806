import type { Transaction } from 'kysely';
import type { Design, DesignView, RedemptionResult } from '@guquan/contract/design';
import type { Db } from '../db/database.ts';
import { newPublicId } from '../db/public-id.ts';
import type { Database } from '../db/schema.ts';
import { imageById, required, userSummaries } from '../db/summaries.ts';
import { isUniqueViolation } from './unique-violation.ts';

/** What asking to redeem a design came to. */
export type RedeemOutcome =
  | { state: 'redeemed'; result: RedemptionResult }
  /** The same key came again: the original redemption, nothing debited this time. */
  | { state: 'replayed'; result: RedemptionResult }
  | { state: 'not_found' }
  | { state: 'unavailable' }
  | { state: 'already_redeemed' }
  /** The user is the designer: nobody pays for their own drawing. */
  | { state: 'own_design' }
  | { state: 'insufficient_points'; balance: number; pricePoints: number }
  | { state: 'idempotency_key_reused' };

export interface DesignRepositoryOptions {
  now?: () => Date;
  /** Tests only: runs inside the redemption's transaction right after the debit. */
  afterDebit?: (trx: Transaction<Database>) => void | Promise<void>;
}

export interface Redeemer {
  /** The user's row id (from the session). */
  userId: number;
  designId: string;
  idempotencyKey: string;
}

type Trx = Transaction<Database>;

/** The user's points balance (users.points: the platform's, less what redemptions debited). */
async function balanceOf(trx: Trx | Db, userId: number): Promise<number> {
  const row = await trx
    .selectFrom('users')
    .select('points')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.points ?? 0;
}

export interface RedemptionRecord {
  userId: number;
  designRowId: number;
  pricePoints: number;
  /** The balance once the price is debited (the caller debits users.points). */
  balanceAfter: number;
  idempotencyKey: string;
  at: string;
}

/**
 * Writes a redemption: its ledger entry (the debit) and the redemption that refers to it. Its
 * public id is returned. The one place that writes them: redeem() below, and the demo seed.
 */
export async function recordRedemption(trx: Trx, record: RedemptionRecord): Promise<string> {
  const publicId = newPublicId();
  const entry = await trx
    .insertInto('point_ledger')
    .values({
      user_id: record.userId,
      delta: -record.pricePoints,
      balance_after: record.balanceAfter,
      reason: 'redemption',
      reference: `redemption:${publicId}`,
      created_at: record.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('redemptions')
    .values({
      public_id: publicId,
      user_id: record.userId,
      design_id: record.designRowId,
      idempotency_key: record.idempotencyKey,
      price_points: record.pricePoints,
      ledger_entry_id: entry.id,
      created_at: record.at,
    })
    .execute();
  return publicId;
}

/** A stored redemption as the API answers it, with the balance right after its debit. */
async function redemptionResult(
  trx: Trx,
  where: { userId: number } & ({ key: string } | { designRowId: number }),
): Promise<{ designRowId: number; result: RedemptionResult } | undefined> {
  let query = trx
    .selectFrom('redemptions')
    .innerJoin('designs', 'designs.id', 'redemptions.design_id')
    .innerJoin('point_ledger', 'point_ledger.id', 'redemptions.ledger_entry_id')
    .select([
      'redemptions.public_id',
      'redemptions.design_id',
      'redemptions.price_points',
      'redemptions.created_at',
      'designs.public_id as design_public_id',
      'point_ledger.balance_after',
    ])
    .where('redemptions.user_id', '=', where.userId);
  query =
    'key' in where
      ? query.where('redemptions.idempotency_key', '=', where.key)
      : query.where('redemptions.design_id', '=', where.designRowId);
  const row = await query.executeTakeFirst();
  return (
    row && {
      designRowId: row.design_id,
      result: {
        redemption: {
          id: row.public_id,
          designId: row.design_public_id,
          pricePoints: row.price_points,
          redeemedAt: row.created_at,
        },
        balanceAfter: row.balance_after,
      },
    }
  );
}

/**
 * Designs, redemptions and their ledger: the only code that touches those tables, and the only
 * code that debits a balance (`users.points`, which the platform's `user.upserted` sets). A
 * redemption is one transaction whose every guard is also a database rule, so it holds on
 * PostgreSQL with several servers as it does on SQLite (where transactions run one at a time
 * anyway): the debit is a conditional UPDATE (`points >= price`; the database refuses a balance
 * below zero in any case), and the unique indexes on (user, design) and (user, key) refuse a
 * second redemption that slipped past the reads; such a refusal rolls the whole attempt back,
 * debit included, and the attempt is answered from the row that won.
 */
export function designRepository(db: Db, options: DesignRepositoryOptions = {}) {
  const now = options.now ?? (() => new Date());

  async function findDesign(publicId: string) {
    return db
      .selectFrom('designs')
      .selectAll()
      .where('public_id', '=', publicId)
      .executeTakeFirst();
  }

  async function redeemOnce(trx: Trx, { userId, designId, idempotencyKey }: Redeemer) {
    const design = await trx
      .selectFrom('designs')
      .select(['id', 'public_id', 'designer_id', 'price_points', 'retired_at'])
      .where('public_id', '=', designId)
      .executeTakeFirst();
    if (!design) return { state: 'not_found' } as const;
    if (design.designer_id === userId) return { state: 'own_design' } as const;

    const byKey = async () => {
      const found = await redemptionResult(trx, { userId, key: idempotencyKey });
      if (!found) return undefined;
      return found.designRowId === design.id
        ? ({ state: 'replayed', result: found.result } as const)
        : ({ state: 'idempotency_key_reused' } as const);
    };
    const replay = await byKey();
    if (replay) return replay;
    // Who has the drawing keeps it, even once it is retired: "already redeemed" comes first.
    if (await redemptionResult(trx, { userId, designRowId: design.id })) {
      // On PostgreSQL each statement sees what was committed before it began: the redemption
      // found here may be a parallel request with this very key that committed after the look-up
      // by key above. Looked up again, it is a replay.
      return (await byKey()) ?? ({ state: 'already_redeemed' } as const);
    }
    if (design.retired_at !== null) return { state: 'unavailable' } as const;

    const at = now().toISOString();
    const price = design.price_points;
    const debited = await trx
      .updateTable('users')
      .set((eb) => ({ points: eb('points', '-', price) }))
      .where('id', '=', userId)
      .where('points', '>=', price)
      .returning('points as balance')
      .executeTakeFirst();
    if (!debited) {
      return {
        state: 'insufficient_points',
        balance: await balanceOf(trx, userId),
        pricePoints: price,
      } as const;
    }
    await options.afterDebit?.(trx);

    const publicId = await recordRedemption(trx, {
      userId,
      designRowId: design.id,
      pricePoints: price,
      balanceAfter: debited.balance,
      idempotencyKey,
      at,
    });
    return {
      state: 'redeemed',
      result: {
        redemption: {
          id: publicId,
          designId: design.public_id,
          pricePoints: price,
          redeemedAt: at,
        },
        balanceAfter: debited.balance,
      },
    } as const;
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
        const redemption = await redemptionResult(trx, { userId, designRowId: designRow.id });
        return {
          design,
          viewer: {
            balance: await balanceOf(trx, userId),
            redemption: redemption?.result.redemption ?? null,
            ownDesign: designRow.designer_id === userId,
          },
        };
      });
    },

    async redeem(request: Redeemer): Promise<RedeemOutcome> {
      try {
        return await db.transaction().execute((trx) => redeemOnce(trx, request));
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // A parallel attempt (same key or same design) committed first and everything of this
        // one was rolled back: answering again now reads the winner.
        return db.transaction().execute((trx) => redeemOnce(trx, request));
      }
    },

    balanceOf: (userId: number) => balanceOf(db, userId),

    /** How many designs the user has redeemed (what deleting the account takes away). */
    async redeemedCount(userId: number): Promise<number> {
      const row = await db
        .selectFrom('redemptions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type DesignRepository = ReturnType<typeof designRepository>;
