import type { Expression, ExpressionBuilder, Kysely, SqlBool, Transaction } from 'kysely';
import type { AccountImages } from '../db/account-anonymization.ts';
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
 * Every column that holds an image id (`table.column`): the ONE list media serving (may anybody
 * see it?) and the deletion job (does anything still use it? which are a user's?) both read. A
 * new column holding an image id belongs here, or its images would never be served, and be
 * deleted while still in use: image-references.test.ts names a column that is missing.
 */
const IMAGE_REFERENCES = {
  // A user's avatar, shown beside everything they share and every comment they write.
  'users.avatar_image_id': (_db, eb) =>
    eb.exists(
      eb.selectFrom('users').select('users.id').whereRef('users.avatar_image_id', '=', 'images.id'),
    ),
  'goods_images.image_id': (db, eb, publicOnly) =>
    eb.exists(
      eb
        .selectFrom('goods_images')
        .select('goods_images.goods_id')
        .whereRef('goods_images.image_id', '=', 'images.id')
        .$if(publicOnly, (query) => query.where('goods_images.goods_id', 'in', publicGoodsIds(db))),
    ),
  'cabinets.cover_image_id': (db, eb, publicOnly) =>
    eb.exists(
      eb
        .selectFrom('cabinets')
        .select('cabinets.id')
        .whereRef('cabinets.cover_image_id', '=', 'images.id')
        .$if(publicOnly, (query) => query.where('cabinets.id', 'in', publicCabinetIds(db))),
    ),
  'note_images.image_id': (db, eb, publicOnly) =>
    eb.exists(
      eb
        .selectFrom('note_images')
        .select('note_images.note_id')
        .whereRef('note_images.image_id', '=', 'images.id')
        .$if(publicOnly, (query) => query.where('note_images.note_id', 'in', publicNoteIds(db))),
    ),
  // A design's watermarked preview, shown while the design can be redeemed.
  'designs.preview_image_id': (_db, eb, publicOnly) =>
    eb.exists(
      eb
        .selectFrom('designs')
        .select('designs.id')
        .whereRef('designs.preview_image_id', '=', 'images.id')
        .$if(publicOnly, (query) => query.where('designs.retired_at', 'is', null)),
    ),
} satisfies Readonly<Record<string, ImageReference>>;

export type ImageColumn = keyof typeof IMAGE_REFERENCES;
export const IMAGE_COLUMNS = Object.keys(IMAGE_REFERENCES) as readonly ImageColumn[];
const references: readonly ImageReference[] = Object.values(IMAGE_REFERENCES);

/** Something still refers to the image: it must stay. */
export function imageInUse(db: Kysely<Database>) {
  return (eb: ImagesEb) => eb.or(references.map((reference) => reference(db, eb, false)));
}

/** Something anybody may see shows the image: it may be served by its id. */
export function imageShownToAnybody(db: Kysely<Database>) {
  return (eb: ImagesEb) => eb.or(references.map((reference) => reference(db, eb, true)));
}

/**
 * Where the images of a user's content are, for every column that holds an image id
 * (media/image-references.ts): those the account's deletion may leave unused. Null for a column
 * whose images are not the user's content. A new image column does not compile until it is here.
 */
type ImagesOfUser = (trx: Transaction<Database>, userId: number) => Promise<{ image_id: number }[]>;

const USERS_IMAGES: Readonly<Record<ImageColumn, ImagesOfUser | null>> = {
  // Read with the user's row, which anonymizeAccount anonymizes (db/account-anonymization.ts).
  'users.avatar_image_id': null,
  'goods_images.image_id': (trx, userId) =>
    trx
      .selectFrom('goods_images')
      .select('image_id')
      .where('goods_id', 'in', trx.selectFrom('goods').select('id').where('owner_id', '=', userId))
      .execute(),
  'cabinets.cover_image_id': (trx, userId) =>
    trx
      .selectFrom('cabinets')
      .select('cover_image_id as image_id')
      .where('owner_id', '=', userId)
      .execute(),
  'note_images.image_id': (trx, userId) =>
    trx
      .selectFrom('note_images')
      .select('image_id')
      .where('note_id', 'in', trx.selectFrom('notes').select('id').where('author_id', '=', userId))
      .execute(),
  // The designs the user drew stay, retired, for those who redeemed them: their previews too.
  'designs.preview_image_id': null,
};

/**
 * What anonymizing an account (db/account-anonymization.ts) asks of the images: which are the
 * user's content, and whether something still uses one.
 */
export const accountImages: AccountImages = {
  async ofUser(trx, userId) {
    const ids: number[] = [];
    for (const imagesOf of Object.values(USERS_IMAGES)) {
      if (imagesOf === null) continue;
      for (const row of await imagesOf(trx, userId)) ids.push(row.image_id);
    }
    return ids;
  },
  inUse: imageInUse,
};
