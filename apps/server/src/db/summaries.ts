import type { Image, UserSummary } from '@guquan/contract/share';
import type { Db } from './database.ts';
import type { ImageState } from './schema.ts';

// Images and users as the contract shows them: what shares, designs and anything else that shows
// a picture or a person read.

export const IMAGE_COLUMNS = [
  'images.public_id as image_public_id',
  'images.width as image_width',
  'images.height as image_height',
  'images.alt as image_alt',
  'images.state as image_state',
] as const;

interface ImageColumns {
  image_public_id: string;
  image_width: number;
  image_height: number;
  image_alt: string;
  image_state: ImageState;
}

/**
 * An image as the contract shows it: `missing` while its file is not here (fetched from the
 * platform in the background, media/platform-image-fetcher.ts), so pages show the placeholder;
 * what a page shows changes when it arrives, and with it the page's version and its pictures'.
 */
export function toImage(row: ImageColumns): Image {
  return {
    id: row.image_public_id,
    width: row.image_width,
    height: row.image_height,
    alt: row.image_alt,
    ...(row.image_state === 'ready' ? {} : { missing: true as const }),
  };
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
      'images.state as avatar_state',
    ])
    .where('users.id', 'in', unique)
    .execute();
  for (const row of rows) {
    const avatar =
      row.avatar_public_id !== null &&
      row.avatar_width !== null &&
      row.avatar_height !== null &&
      row.avatar_alt !== null &&
      row.avatar_state !== null
        ? toImage({
            image_public_id: row.avatar_public_id,
            image_width: row.avatar_width,
            image_height: row.avatar_height,
            image_alt: row.avatar_alt,
            image_state: row.avatar_state,
          })
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
