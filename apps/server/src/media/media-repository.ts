import type { Db } from '../db/database.ts';
import { imageShownToAnybody } from './image-references.ts';

export interface StoredImage {
  publicId: string;
  width: number;
  height: number;
  /** The original's bare file name in MEDIA_DIR ('' until it has arrived). */
  fileName: string;
  /** Where the platform keeps the original: a server whose disk lacks it fetches it again. */
  sourceUrl: string | null;
  /** Whether the original is here: false while it is fetched from the platform, or refused. */
  ready: boolean;
}

/**
 * An image anybody may see (image-references.ts: it shows something in public view, or is an
 * avatar, or a redeemable design's preview). Anything else is as good as absent, so the pictures
 * of a private or removed item, or of an owner in the deletion cool-off, cannot be fetched by
 * their id either.
 */
export async function findServableImage(
  db: Db,
  publicId: string,
): Promise<StoredImage | undefined> {
  const row = await db
    .selectFrom('images')
    .select([
      'images.public_id',
      'images.width',
      'images.height',
      'images.file_name',
      'images.source_url',
      'images.state',
    ])
    .where('images.public_id', '=', publicId)
    .where(imageShownToAnybody(db))
    .executeTakeFirst();
  return (
    row && {
      publicId: row.public_id,
      width: row.width,
      height: row.height,
      fileName: row.file_name,
      sourceUrl: row.source_url,
      ready: row.state === 'ready' && row.file_name !== '',
    }
  );
}
