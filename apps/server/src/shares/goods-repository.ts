import type { Goods } from '@guquan/contract/share';
import type { Db } from '../db/database.ts';
import { required, userSummaries } from '../db/summaries.ts';
import { inDeletionCoolOff } from './public-visibility.ts';
import { imagesByOwner } from './share-queries.ts';
import { parseTags, type StoredShare } from './stored-share.ts';

/** A goods by its public id, with its images in order and its owner; undefined when absent. */
export async function findGoods(db: Db, publicId: string): Promise<StoredShare<Goods> | undefined> {
  const row = await db
    .selectFrom('goods')
    .selectAll()
    .where('public_id', '=', publicId)
    .executeTakeFirst();
  if (!row) return undefined;
  const [images, owners] = await Promise.all([
    imagesByOwner(db, 'goods_images', [row.id]),
    userSummaries(db, [row.owner_id]),
  ]);
  return {
    visibility: row.visibility,
    removedAt: row.removed_at,
    ownerLeaving: await inDeletionCoolOff(db, row.owner_id),
    item: {
      id: row.public_id,
      name: row.name,
      work: row.work,
      character: row.character,
      category: row.category,
      priceFen: row.price_fen,
      status: row.status,
      owner: required(owners.get(row.owner_id), 'goods owner'),
      images: images.get(row.id) ?? [],
      likes: row.likes,
      wants: row.wants,
      text: row.text,
      tags: parseTags(row.tags),
      createdAt: row.created_at,
    },
  };
}
