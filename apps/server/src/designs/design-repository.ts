import type { Transaction } from 'kysely';
import type { Design, DesignView } from '@guquan/contract/design';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { imageById, required, userSummaries } from '../db/summaries.ts';
import { heldRedemption, redeemedCount, redemptionResultOf } from './redemption-repository.ts';

type Trx = Transaction<Database>;

/** The user's points balance: users.points, the platform's (its events and debit answers). */
export async function balanceOf(trx: Trx | Db, userId: number): Promise<number> {
  const row = await trx
    .selectFrom('users')
    .select('points')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.points ?? 0;
}

/**
 * Designs as the pages show them, the user's balance, and where a user stands with a design.
 * Their redemptions are kept by redemption-repository.ts; redeeming one, which asks the platform,
 * is redemption-service.ts.
 */
export function designRepository(db: Db) {
  /** The design as the page shows it; the preview only while it is available. */
  async function findDesign(publicId: string): Promise<Design | undefined> {
    const row = await db
      .selectFrom('designs')
      .selectAll()
      .where('public_id', '=', publicId)
      .executeTakeFirst();
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
    findDesign,

    /** The design and where the user stands with it; undefined for an unknown design. */
    async view(userId: number, designId: string): Promise<DesignView | undefined> {
      const design = await findDesign(designId);
      if (!design) return undefined;
      return db.transaction().execute(async (trx) => {
        const designRow = await trx
          .selectFrom('designs')
          .select(['id', 'designer_id'])
          .where('public_id', '=', designId)
          .executeTakeFirstOrThrow();
        const redemption = await heldRedemption(trx, userId, designRow.id);
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

    balanceOf: (userId: number) => balanceOf(db, userId),

    /** How many designs the user has redeemed or is redeeming (what deleting takes away). */
    redeemedCount: (userId: number) => redeemedCount(db, userId),
  };
}

export type DesignRepository = ReturnType<typeof designRepository>;
