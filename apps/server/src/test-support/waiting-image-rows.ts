import type { Db } from '../db/database.ts';
import { newPublicId, nowIso } from '../db/public-id.ts';

/**
 * Rows as the platform's events leave them (one `images` row per URL, `waiting`, no file yet)
 * and a public goods showing them: what the image fetcher's tests start from, on either engine.
 */

export async function insertWaitingImage(
  db: Db,
  sourceUrl: string,
  { width = 64, height = 48 }: { width?: number; height?: number } = {},
): Promise<{ id: number; publicId: string }> {
  const publicId = newPublicId();
  const row = await db
    .insertInto('images')
    .values({
      public_id: publicId,
      width,
      height,
      alt: 'a photo from the platform',
      file_name: '',
      created_at: nowIso(),
      source_url: sourceUrl,
      state: 'waiting',
      fetch_after: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, publicId };
}

/** A user and a public goods of theirs whose images are `imageIds`, in order. */
export async function insertGoodsWithImages(
  db: Db,
  imageIds: readonly number[],
): Promise<{ goodsPublicId: string }> {
  const user = await db
    .insertInto('users')
    .values({
      public_id: newPublicId(),
      nickname: '谷子收藏家',
      avatar_image_id: null,
      created_at: nowIso(),
      phone_encrypted: null,
      phone_index: null,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const goodsPublicId = newPublicId();
  const goods = await db
    .insertInto('goods')
    .values({
      public_id: goodsPublicId,
      owner_id: user.id,
      name: '吧唧 58mm',
      work: '咒术回战',
      character: '五条悟',
      category: '吧唧',
      price_fen: 2500,
      status: 'selling',
      text: '',
      tags: '[]',
      likes: 0,
      wants: 0,
      visibility: 'public',
      created_at: nowIso(),
      removed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('goods_images')
    .values(
      imageIds.map((imageId, position) => ({ goods_id: goods.id, image_id: imageId, position })),
    )
    .execute();
  return { goodsPublicId };
}

export async function imageRow(db: Db, id: number) {
  return db
    .selectFrom('images')
    .select(['state', 'file_name', 'fetch_attempts', 'fetch_after', 'fetch_error'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
