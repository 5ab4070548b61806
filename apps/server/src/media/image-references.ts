import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { publicCabinetIds, publicGoodsIds, publicNoteIds } from '../shares/public-visibility.ts';

type ImagesEb = ExpressionBuilder<Database, 'images'>;

/**
 * Whether something refers to the image of the row at hand (`images.id`); with `publicOnly`, only
 * what anybody may see counts.
 */
type ImageReference = (
  db: Kysely<Database>,
  eb: ImagesEb,
  publicOnly: boolean,
) => Expression<SqlBool>;

/**
 * Every column that holds an image id: the ONE list media serving (may anybody see it?) and the
 * deletion job (does anything still use it?) both read. A new column holding an image id belongs
 * here, or its images would never be served, and be deleted while still in use.
 */
const IMAGE_REFERENCES: readonly ImageReference[] = [
  // A user's avatar, shown beside everything they share and every comment they write.
  (_db, eb) =>
    eb.exists(
      eb.selectFrom('users').select('users.id').whereRef('users.avatar_image_id', '=', 'images.id'),
    ),
  (db, eb, publicOnly) =>
    eb.exists(
      eb
        .selectFrom('goods_images')
        .select('goods_images.goods_id')
        .whereRef('goods_images.image_id', '=', 'images.id')
        .$if(publicOnly, (query) => query.where('goods_images.goods_id', 'in', publicGoodsIds(db))),
    ),
  (db, eb, publicOnly) =>
    eb.exists(
      eb
        .selectFrom('cabinets')
        .select('cabinets.id')
        .whereRef('cabinets.cover_image_id', '=', 'images.id')
        .$if(publicOnly, (query) => query.where('cabinets.id', 'in', publicCabinetIds(db))),
    ),
  (db, eb, publicOnly) =>
    eb.exists(
      eb
        .selectFrom('note_images')
        .select('note_images.note_id')
        .whereRef('note_images.image_id', '=', 'images.id')
        .$if(publicOnly, (query) => query.where('note_images.note_id', 'in', publicNoteIds(db))),
    ),
  // A design's watermarked preview, shown while the design can be redeemed.
  (_db, eb, publicOnly) =>
    eb.exists(
      eb
        .selectFrom('designs')
        .select('designs.id')
        .whereRef('designs.preview_image_id', '=', 'images.id')
        .$if(publicOnly, (query) => query.where('designs.retired_at', 'is', null)),
    ),
];

/** Something still refers to the image: it must stay. */
export function imageInUse(db: Kysely<Database>) {
  return (eb: ImagesEb) => eb.or(IMAGE_REFERENCES.map((reference) => reference(db, eb, false)));
}

/** Something anybody may see shows the image: it may be served by its id. */
export function imageShownToAnybody(db: Kysely<Database>) {
  return (eb: ImagesEb) => eb.or(IMAGE_REFERENCES.map((reference) => reference(db, eb, true)));
}
