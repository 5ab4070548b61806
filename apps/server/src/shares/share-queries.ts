import type { Image, UserSummary } from '@guquan/contract/share';
import type { Db } from '../db/database.ts';

// Queries the three share repositories have in common: images in order, user summaries.

const IMAGE_COLUMNS = [
  'images.public_id as image_public_id',
  'images.width as image_width',
  'images.height as image_height',
  'images.alt as image_alt',
] as const;

interface ImageColumns {
  image_public_id: string;
  image_width: number;
  image_height: number;
  image_alt: string;
}

function toImage(row: ImageColumns): Image {
  return {
    id: row.image_public_id,
    width: row.image_width,
    height: row.image_height,
    alt: row.image_alt,
  };
}

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

export async function imageById(db: Db, imageId: number): Promise<Image | undefined> {
  const row = await db
    .selectFrom('images')
    .select(IMAGE_COLUMNS)
    .where('images.id', '=', imageId)
    .executeTakeFirst();
  return row && toImage(row);
}

/** Users as the contract summarizes them (nickname, avatar), keyed by row id. */
export async function userSummaries(
  db: Db,
  userIds: readonly number[],
): Promise<Map<number, UserSummary>> {
  const summaries = new Map<number, UserSummary>();
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return summaries;
  const rows = await db
    .selectFrom('users')
    .leftJoin('images', 'images.id', 'users.avatar_image_id')
    .select([
      'users.id',
      'users.public_id',
      'users.nickname',
      'images.public_id as avatar_public_id',
      'images.width as avatar_width',
      'images.height as avatar_height',
      'images.alt as avatar_alt',
    ])
    .where('users.id', 'in', unique)
    .execute();
  for (const row of rows) {
    const avatar =
      row.avatar_public_id !== null &&
      row.avatar_width !== null &&
      row.avatar_height !== null &&
      row.avatar_alt !== null
        ? {
            id: row.avatar_public_id,
            width: row.avatar_width,
            height: row.avatar_height,
            alt: row.avatar_alt,
          }
        : null;
    summaries.set(row.id, { id: row.public_id, nickname: row.nickname, avatar });
  }
  return summaries;
}

/** A user every share must have; its absence is a broken database, not a visitor's error. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Missing ${what}`);
  return value;
}

/**
 * Whether a user has asked to delete their account and is in the cool-off: their shares are out
 * of public view until they cancel (privacy policy 11.5), and gone after.
 */
export async function inDeletionCoolOff(db: Db, userId: number): Promise<boolean> {
  const pending = await db
    .selectFrom('account_deletion_requests')
    .select('id')
    .where('user_id', '=', userId)
    .where('cancelled_at', 'is', null)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return pending !== undefined;
}
