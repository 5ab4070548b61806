import type { Image } from '@guquan/contract/share';
import type { Db } from '../db/database.ts';
import { IMAGE_COLUMNS, toImage } from '../db/summaries.ts';

// What the share repositories read beyond the summaries of db/summaries.ts: images in order.

/** Images as the contract shows them, keyed by the owner's row id, each list in position order. */
export async function imagesByOwner(
  db: Db,
  table: 'goods_images' | 'note_images',
  ownerIds: readonly number[],
): Promise<Map<number, Image[]>> {
  const byOwner = new Map<number, Image[]>();
  if (ownerIds.length === 0) return byOwner;
  // Both link tables have the same shape; only the owner column's name differs.
  const rows =
    table === 'goods_images'
      ? await db
          .selectFrom('goods_images as link')
          .innerJoin('images', 'images.id', 'link.image_id')
          .select(['link.goods_id as owner_id', 'link.position', ...IMAGE_COLUMNS])
          .where('link.goods_id', 'in', ownerIds)
          .orderBy('link.goods_id')
          .orderBy('link.position')
          .execute()
      : await db
          .selectFrom('note_images as link')
          .innerJoin('images', 'images.id', 'link.image_id')
          .select(['link.note_id as owner_id', 'link.position', ...IMAGE_COLUMNS])
          .where('link.note_id', 'in', ownerIds)
          .orderBy('link.note_id')
          .orderBy('link.position')
          .execute();
  for (const row of rows) {
    const list = byOwner.get(row.owner_id) ?? [];
    list.push(toImage(row));
    byOwner.set(row.owner_id, list);
  }
  return byOwner;
}
