import type { ShelfGoods } from '@guquan/contract/share-shelf';
import { SHELF_SIZE } from '@guquan/contract/share-paths';
import type { Db } from '../db/database.ts';
import { usersInDeletionCoolOff } from './public-visibility.ts';
import { imagesByOwner } from './share-queries.ts';

/**
 * The goods of the "more from this work" shelf: in public view (the rule of public-visibility.ts),
 * of one work or, without one, of any; never `except` (the item the page shows); newest first,
 * the row id breaking ties so the order is stable. Walks the index of migration 0020
 * (`goods_work_created`, `goods_created`) from its newest end.
 */
export async function shelfGoods(
  db: Db,
  { work, except }: { work: string | null; except: string | null },
): Promise<ShelfGoods[]> {
  let query = db
    .selectFrom('goods')
    .select([
      'goods.id',
      'goods.public_id',
      'goods.name',
      'goods.work',
      'goods.status',
      'goods.price_fen',
    ])
    .where('goods.visibility', '=', 'public')
    .where('goods.removed_at', 'is', null)
    .where('goods.owner_id', 'not in', usersInDeletionCoolOff(db));
  if (work !== null) query = query.where('goods.work', '=', work);
  if (except !== null) query = query.where('goods.public_id', '!=', except);
  const rows = await query
    .orderBy('goods.created_at', 'desc')
    .orderBy('goods.id', 'desc')
    .limit(SHELF_SIZE)
    .execute();
  const images = await imagesByOwner(
    db,
    'goods_images',
    rows.map((row) => row.id),
  );
  return rows.flatMap((row) => {
    const cover = images.get(row.id)?.[0];
    // Every goods has an image (the contract's rule); one without is left off, never shown broken.
    if (!cover) return [];
    return [
      {
        id: row.public_id,
        name: row.name,
        work: row.work,
        status: row.status,
        priceFen: row.price_fen,
        cover,
      },
    ];
  });
}

/**
 * The work of a removed goods, when it was public before it went: its page may still name the
 * work it was of. A private goods' work stays the owner's (undefined), as does an unknown id's.
 */
export async function workOfRemovedGoods(db: Db, publicId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('goods')
    .select('goods.work')
    .where('goods.public_id', '=', publicId)
    .where('goods.visibility', '=', 'public')
    .where('goods.removed_at', 'is not', null)
    .executeTakeFirst();
  return row?.work;
}
