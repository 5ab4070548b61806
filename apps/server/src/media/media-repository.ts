import type { Db } from '../db/database.ts';

export interface StoredImage {
  publicId: string;
  width: number;
  height: number;
  /** The original's bare file name in DATA_DIR/media. */
  fileName: string;
}

/**
 * An image anybody may see: it shows a public goods, cabinet or note that was not removed, or it
 * is a user's avatar (shown beside everything they share), or the watermarked preview of a design
 * that is still available. Anything else is as good as absent,
 * so a private or removed item's pictures cannot be fetched by their id either.
 */
export async function findServableImage(
  db: Db,
  publicId: string,
): Promise<StoredImage | undefined> {
  const row = await db
    .selectFrom('images')
    .select(['images.public_id', 'images.width', 'images.height', 'images.file_name'])
    .where('images.public_id', '=', publicId)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.avatar_image_id', '=', 'images.id'),
        ),
        eb.exists(
          eb
            .selectFrom('goods_images')
            .innerJoin('goods', 'goods.id', 'goods_images.goods_id')
            .select('goods.id')
            .whereRef('goods_images.image_id', '=', 'images.id')
            .where('goods.visibility', '=', 'public')
            .where('goods.removed_at', 'is', null),
        ),
        eb.exists(
          eb
            .selectFrom('cabinets')
            .select('cabinets.id')
            .whereRef('cabinets.cover_image_id', '=', 'images.id')
            .where('cabinets.visibility', '=', 'public')
            .where('cabinets.removed_at', 'is', null),
        ),
        eb.exists(
          eb
            .selectFrom('note_images')
            .innerJoin('notes', 'notes.id', 'note_images.note_id')
            .select('notes.id')
            .whereRef('note_images.image_id', '=', 'images.id')
            .where('notes.visibility', '=', 'public')
            .where('notes.removed_at', 'is', null),
        ),
        eb.exists(
          eb
            .selectFrom('designs')
            .select('designs.id')
            .whereRef('designs.preview_image_id', '=', 'images.id')
            .where('designs.retired_at', 'is', null),
        ),
      ]),
    )
    .executeTakeFirst();
  return (
    row && {
      publicId: row.public_id,
      width: row.width,
      height: row.height,
      fileName: row.file_name,
    }
  );
}
