import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { newPublicId } from '../../db/public-id.ts';
import type { Database } from '../../db/schema.ts';
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
 * earning and every redemption a ledger entry, the balance the sum of them.
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
      const publicId = newPublicId();
      const entry = await trx
        .insertInto('point_ledger')
        .values({
          user_id: user,
          delta: -design.price,
          balance_after: balance,
          reason: 'redemption',
          reference: `redemption:${publicId}`,
          created_at: updatedAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('redemptions')
        .values({
          public_id: publicId,
          user_id: user,
          design_id: design.id,
          idempotency_key: randomUUID(),
          price_points: design.price,
          ledger_entry_id: entry.id,
          created_at: updatedAt,
        })
        .execute();
    }
    await trx
      .insertInto('point_balances')
      .values({ user_id: user, balance, updated_at: updatedAt })
      .execute();
  }
}
