import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { recordRedemption } from '../../designs/design-repository.ts';
import type { DemoImage } from './demo-content.ts';
import type { DemoUserKey } from './demo-ids.ts';
import { DEMO_DESIGNS, DEMO_POINTS } from './demo-designs.ts';

/** The seed's lookups: row ids of what it has inserted, and its story's clock. */
export interface DesignSeedContext {
  userId: (key: DemoUserKey) => number;
  imageId: (image: DemoImage) => number;
  daysAgo: (days: number) => string;
}

/** The design previews the seed draws (watermarked). */
export function demoDesignImages(): DemoImage[] {
  return DEMO_DESIGNS.map((design) => design.preview);
}

/**
 * Inserts the demo designs, then each user's points as the app would have written them: every
 * earning and every redemption a ledger entry (redemptions written by the designs repository), the
 * balance the sum of them.
 */
export async function seedDesigns(
  trx: Transaction<Database>,
  { userId, imageId, daysAgo }: DesignSeedContext,
): Promise<void> {
  const designs = new Map<string, { id: number; price: number }>();
  for (const design of DEMO_DESIGNS) {
    const row = await trx
      .insertInto('designs')
      .values({
        public_id: design.publicId,
        designer_id: userId(design.designer),
        title: design.title,
        preview_image_id: imageId(design.preview),
        price_points: design.pricePoints,
        created_at: daysAgo(design.daysAgo),
        retired_at: design.retired ? daysAgo(2) : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    designs.set(design.publicId, { id: row.id, price: design.pricePoints });
  }

  for (const account of DEMO_POINTS) {
    const user = userId(account.user);
    let balance = 0;
    let updatedAt = daysAgo(365);
    for (const earning of account.earned) {
      balance += earning.points;
      updatedAt = daysAgo(earning.daysAgo);
      await trx
        .insertInto('point_ledger')
        .values({
          user_id: user,
          delta: earning.points,
          balance_after: balance,
          reason: 'earned',
          reference: earning.reference,
          created_at: updatedAt,
        })
        .execute();
    }
    for (const redeemed of account.redeemed) {
      const design = designs.get(redeemed.design);
      if (!design) throw new Error('Demo points name an unknown design');
      balance -= design.price;
      updatedAt = daysAgo(redeemed.daysAgo);
      await recordRedemption(trx, {
        userId: user,
        designRowId: design.id,
        pricePoints: design.price,
        balanceAfter: balance,
        idempotencyKey: randomUUID(),
        at: updatedAt,
      });
    }
    await trx.updateTable('users').set({ points: balance }).where('id', '=', user).execute();
  }
}
