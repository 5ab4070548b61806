import type { Cabinet, CabinetItem } from '@guquan/contract/share';
import type { Db } from '../db/database.ts';
import { imageById, required, userSummaries } from '../db/summaries.ts';
import { inDeletionCoolOff } from './public-visibility.ts';
import { imagesByOwner } from './share-queries.ts';
import type { StoredShare } from './stored-share.ts';

/** The goods a cabinet's page lists at most (the contract's `items`); `itemCount` counts all. */
const CABINET_ITEMS_SHOWN = 200;

/**
 * A cabinet by its public id. `itemCount` counts every goods in it; `items` lists only the ones
 * anybody may see (public, not removed), in the owner's order, each with its first image.
 */
export async function findCabinet(
  db: Db,
  publicId: string,
): Promise<StoredShare<Cabinet> | undefined> {
  const row = await db
    .selectFrom('cabinets')
    .selectAll()
    .where('public_id', '=', publicId)
    .executeTakeFirst();
  if (!row) return undefined;

  const [cover, owners, count, visible] = await Promise.all([
    imageById(db, row.cover_image_id),
    userSummaries(db, [row.owner_id]),
    db
      .selectFrom('cabinet_goods')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('cabinet_id', '=', row.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('cabinet_goods')
      .innerJoin('goods', 'goods.id', 'cabinet_goods.goods_id')
      .select([
        'goods.id',
        'goods.public_id',
        'goods.name',
        'goods.work',
        'goods.status',
        'goods.price_fen',
      ])
      .where('cabinet_goods.cabinet_id', '=', row.id)
      .where('goods.visibility', '=', 'public')
      .where('goods.removed_at', 'is', null)
      .orderBy('cabinet_goods.position')
      .limit(CABINET_ITEMS_SHOWN)
      .execute(),
  ]);
  const images = await imagesByOwner(
    db,
    'goods_images',
    visible.map((goods) => goods.id),
  );
  const items: CabinetItem[] = visible.flatMap((goods) => {
    const first = images.get(goods.id)?.[0];
    // A goods always has an image; one without could not be shown as a tile.
    return first
      ? [
          {
            id: goods.public_id,
            name: goods.name,
            work: goods.work,
            status: goods.status,
            priceFen: goods.price_fen,
            cover: first,
          },
        ]
      : [];
  });

  return {
    visibility: row.visibility,
    removedAt: row.removed_at,
    ownerLeaving: await inDeletionCoolOff(db, row.owner_id),
    item: {
      id: row.public_id,
      name: row.name,
      cover: required(cover, 'cabinet cover'),
      owner: required(owners.get(row.owner_id), 'cabinet owner'),
      // countAll is a number on SQLite and a bigint string on PostgreSQL.
      itemCount: Number(count.count),
      items,
      text: row.text,
      likes: row.likes,
      createdAt: row.created_at,
    },
  };
}
