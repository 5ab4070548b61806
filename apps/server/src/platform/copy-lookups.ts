import type { Kysely } from 'kysely';
import type { PlatformImage } from '@guquan/contract/platform-events';
import { newPublicId } from '../db/public-id.ts';
import type { Database } from '../db/schema.ts';
import { removedEntities } from './entity-versions.ts';
import { idSlices, LIST_ROWS_PER_STATEMENT, rowSlices, weighedSlices } from '../db/sql-batches.ts';

/**
 * What the copy's writers look up by the platform's ids: row ids of users and goods, and images
 * by their URL (one row per URL, made `waiting` for the media fetcher when new).
 */

/** Row ids of the users (not deleted) with these public ids. */
export async function userRowIds(
  trx: Kysely<Database>,
  publicIds: Iterable<string>,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const slice of idSlices(publicIds)) {
    const rows = await trx
      .selectFrom('users')
      .select(['id', 'public_id'])
      .where('public_id', 'in', slice)
      .where('deleted_at', 'is', null)
      .execute();
    for (const row of rows) found.set(row.public_id, row.id);
  }
  return found;
}

/** Row ids of the goods with these public ids (removed ones too: a cabinet keeps its place). */
export async function goodsRowIds(
  trx: Kysely<Database>,
  publicIds: Iterable<string>,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const slice of idSlices(publicIds)) {
    const rows = await trx
      .selectFrom('goods')
      .select(['id', 'public_id'])
      .where('public_id', 'in', slice)
      .execute();
    for (const row of rows) found.set(row.public_id, row.id);
  }
  return found;
}

/**
 * Of the goods these lists name (cabinets'), the row ids of those here (removed ones too: a
 * cabinet keeps its place) and the ids removed for good (a tombstone: a cabinet does not wait for
 * them), looked up about LIST_ROWS_PER_STATEMENT ids at a time: 250 lists of 1,000 ids are 250
 * short steps, never 250,000 ids at once.
 */
export async function listedGoods(
  trx: Kysely<Database>,
  lists: readonly (readonly string[])[],
): Promise<{ here: Map<string, number>; removed: Set<string> }> {
  const here = new Map<string, number>();
  const removed = new Set<string>();
  for (const group of weighedSlices(
    lists,
    (list) => list.length,
    LIST_ROWS_PER_STATEMENT,
    Infinity,
  )) {
    const unseen = [...new Set(group.flat())].filter((id) => !here.has(id) && !removed.has(id));
    const found = await goodsRowIds(trx, unseen);
    for (const [id, row] of found) here.set(id, row);
    const missing = unseen.filter((id) => !found.has(id));
    for (const id of await removedEntities(trx, 'goods', missing)) removed.add(id);
  }
  return { here, removed };
}

/**
 * The image row of each URL: made when new (state `waiting`, no file yet: media/ fetches it),
 * its size and text updated when known. One statement per slice, URLs in one order so two
 * deliveries naming the same images cannot deadlock.
 */
export async function imageRowIds(
  trx: Kysely<Database>,
  images: Iterable<PlatformImage>,
  now: string,
): Promise<Map<string, number>> {
  const byUrl = new Map<string, PlatformImage>();
  for (const image of images) byUrl.set(image.url, image);
  const sorted = [...byUrl.values()].sort((a, b) => (a.url < b.url ? -1 : 1));
  const found = new Map<string, number>();
  for (const slice of rowSlices(sorted, 8)) {
    const rows = await trx
      .insertInto('images')
      .values(
        slice.map((image) => ({
          public_id: newPublicId(),
          width: image.width,
          height: image.height,
          alt: image.alt,
          file_name: '',
          created_at: now,
          source_url: image.url,
          state: 'waiting' as const,
        })),
      )
      .onConflict((conflict) =>
        conflict.column('source_url').doUpdateSet((eb) => ({
          width: eb.ref('excluded.width'),
          height: eb.ref('excluded.height'),
          alt: eb.ref('excluded.alt'),
        })),
      )
      .returning(['id', 'source_url'])
      .execute();
    for (const row of rows) if (row.source_url !== null) found.set(row.source_url, row.id);
  }
  return found;
}

/** The id of an image `imageRowIds` answered for (it answers every URL it was given). */
export function imageId(ids: ReadonlyMap<string, number>, image: PlatformImage): number {
  const id = ids.get(image.url);
  if (id === undefined) throw new Error('An image row is missing for a URL just written');
  return id;
}
