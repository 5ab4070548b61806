import type { Expression, ExpressionBuilder, Kysely, SqlBool, Transaction } from 'kysely';
import { RETENTION, type RetainedKind } from '@guquan/contract/account-deletion';
import { rememberRemoved, type GoneEntity } from './platform-tombstones.ts';
import { newPublicId } from './public-id.ts';
import type { Database } from './schema.ts';
import { deleteUserRows } from './user-data.ts';

/**
 * Deleting an account's data, beside the list of a user's data (user-data.ts) it follows: the
 * deletion job calls it once a request's cool-off is over (account-deletion/deletion-job.ts), the
 * platform's `user.deleted` when the platform deleted the account (platform/). What it must know
 * of images, which are the user's and which are still used, it is given
 * (media/image-references.ts, `accountImages`).
 */

/** What anonymizing an account asks of the images (media/image-references.ts answers). */
export interface AccountImages {
  /** The ids of the images of the user's content (the avatar aside: it is read here). */
  ofUser(trx: Transaction<Database>, userId: number): Promise<number[]>;
  /** Something still refers to the image: it must stay. */
  inUse(db: Kysely<Database>): (eb: ExpressionBuilder<Database, 'images'>) => Expression<SqlBool>;
}

/** The nickname an anonymized account keeps. */
export const DELETED_NICKNAME = '已注销用户';

export const retentionMonths = (kind: RetainedKind): number =>
  RETENTION.find((entry) => entry.kind === kind)?.months ?? 0;

export function addMonths(iso: string | Date, months: number): string {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString();
}

/** The account (by its platform id, kept hashed) and its goods, cabinets and notes, by public id. */
async function tombstonesOf(
  trx: Transaction<Database>,
  publicId: string,
  userId: number,
): Promise<GoneEntity[]> {
  const goods = await trx
    .selectFrom('goods')
    .select('public_id')
    .where('owner_id', '=', userId)
    .execute();
  const cabinets = await trx
    .selectFrom('cabinets')
    .select('public_id')
    .where('owner_id', '=', userId)
    .execute();
  const notes = await trx
    .selectFrom('notes')
    .select('public_id')
    .where('author_id', '=', userId)
    .execute();
  return [
    { type: 'user', id: publicId },
    ...goods.map((row): GoneEntity => ({ type: 'goods', id: row.public_id })),
    ...cabinets.map((row): GoneEntity => ({ type: 'cabinet', id: row.public_id })),
    ...notes.map((row): GoneEntity => ({ type: 'note', id: row.public_id })),
  ];
}

/**
 * What deleting an account does to its data, in the caller's transaction: copies what the law
 * keeps into `retained_records`, deletes the user's rows (user-data.ts), retires the designs
 * they drew, anonymizes the account row (已注销用户, no avatar or phone, a new public id), leaves
 * tombstones of the account and its items, and queues the files of images nothing uses any more. The deletion job calls it once a request's
 * cool-off is over; the platform's `user.deleted` (platform/) when the platform deleted the
 * account. Answers the encrypted phone the account had, for the notice.
 */
export async function anonymizeAccount(
  trx: Transaction<Database>,
  userId: number,
  now: Date,
  images: AccountImages,
): Promise<{ phoneEncrypted: string | null }> {
  const at = now.toISOString();
  const user = await trx
    .selectFrom('users')
    .select(['public_id', 'phone_encrypted', 'avatar_image_id'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const gone = await tombstonesOf(trx, user.public_id, userId);

  // Goods information, kept three years from publication, out of public view.
  const goodsRetention = retentionMonths('goods_and_transactions');
  const goods = await trx.selectFrom('goods').selectAll().where('owner_id', '=', userId).execute();
  const retained = goods
    .map((row) => ({ row, until: addMonths(row.created_at, goodsRetention) }))
    .filter(({ until }) => until > at);
  if (retained.length > 0) {
    await trx
      .insertInto('retained_records')
      .values(
        retained.map(({ row, until }) => ({
          user_id: userId,
          kind: 'goods' as const,
          payload: JSON.stringify({
            publicId: row.public_id,
            name: row.name,
            work: row.work,
            character: row.character,
            category: row.category,
            priceFen: row.price_fen,
            status: row.status,
            text: row.text,
            tags: JSON.parse(row.tags) as unknown,
            publishedAt: row.created_at,
            removedAt: row.removed_at,
          }),
          created_at: at,
          retain_until: until,
        })),
      )
      .execute();
  }

  // The images the user's content and avatar use.
  const imageIds = new Set(await images.ofUser(trx, userId));
  if (user.avatar_image_id !== null) imageIds.add(user.avatar_image_id);

  // Everything the list of a user's data (db/user-data.ts) marks as deleted: the user's content
  // and the comments under it, codes, points and the designs redeemed with them
  // (the page says so), the membership's state. The App Store's payment records stay with the
  // anonymized account, as transaction records the law makes us keep. The balance on the
  // account's row goes to 0 with the anonymization below.
  await deleteUserRows(trx, userId);

  // Designs the user drew: those who redeemed one keep it, but nobody can redeem it any more.
  await trx
    .updateTable('designs')
    .set({ retired_at: at })
    .where('designer_id', '=', userId)
    .where('retired_at', 'is', null)
    .execute();

  await trx
    .updateTable('users')
    .set({
      public_id: newPublicId(),
      nickname: DELETED_NICKNAME,
      avatar_image_id: null,
      phone_encrypted: null,
      phone_index: null,
      points: 0,
      deleted_at: at,
    })
    .where('id', '=', userId)
    .execute();
  // What the site remembers of the account: that it is gone, and that its items are
  // (platform-tombstones.ts): nothing the platform sends brings them back, their pages say 410.
  await rememberRemoved(trx, gone, at);

  // Images nothing else uses any more: the row now, the file after the commit.
  for (const imageId of imageIds) {
    const stillUsed = await trx
      .selectFrom('images')
      .select('images.id')
      .where('images.id', '=', imageId)
      .where(images.inUse(trx))
      .executeTakeFirst();
    if (stillUsed) continue;
    const image = await trx
      .deleteFrom('images')
      .where('id', '=', imageId)
      .returning(['public_id', 'file_name'])
      .executeTakeFirst();
    if (image) {
      await trx
        .insertInto('media_deletions')
        .values({ image_public_id: image.public_id, file_name: image.file_name, queued_at: at })
        .execute();
    }
  }

  return { phoneEncrypted: user.phone_encrypted };
}
