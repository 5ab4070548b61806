import { sql, type Insertable, type Kysely, type OnConflictBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import { imageId } from './copy-lookups.ts';
import type { EventOf } from './platform-entities.ts';
import { idSlices, rowSlices, storedTime, writeRowsOf } from '../db/sql-batches.ts';

/**
 * Goods, cabinets, notes (with their top comments) and designs as the platform sends them, each
 * kind in a few multi-row statements per batch: the item upserted by its public id (a removed one
 * back if the platform sends it again), its images and lists replaced. Callers pass only events
 * whose owner is here (platform-repository.ts): row ids of owners, goods and images come with them.
 */
interface Lookups {
  users: ReadonlyMap<string, number>;
  images: ReadonlyMap<string, number>;
  now: string;
}

function rowId(ids: ReadonlyMap<string, number>, publicId: string): number {
  const id = ids.get(publicId);
  if (id === undefined) throw new Error('A row the copy needs is missing');
  return id;
}

const byId = <T extends { data: { id: string } }>(events: readonly T[]): T[] =>
  [...events].sort((a, b) => (a.data.id < b.data.id ? -1 : 1));

/**
 * Goods, cabinets or notes upserted by public id, every column taken from the event (a removed
 * item back with `removed_at: null`); answers the row id of each. The update sets each column the
 * rows have but the public id, so a column added to a writer's rows is updated too.
 */
async function upsertItems<T extends 'goods' | 'cabinets' | 'notes'>(
  trx: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<Map<string, number>> {
  const rowIds = new Map<string, number>();
  const [first] = rows;
  if (first === undefined) return rowIds;
  const columns = Object.keys(first);
  // `excluded` has the columns of the rows being inserted: the type Kysely cannot derive for a
  // table that is a type parameter.
  const fromExcluded = Object.fromEntries(
    columns
      .filter((column) => column !== 'public_id')
      .map((column) => [column, sql.ref(`excluded.${column}`)]),
  ) as Parameters<OnConflictBuilder<Database, T>['doUpdateSet']>[0];
  for (const slice of rowSlices(rows, columns.length)) {
    const written = await trx
      .insertInto(table)
      .values(slice)
      .onConflict((conflict) => conflict.column('public_id').doUpdateSet(fromExcluded))
      .returning(['id', 'public_id'])
      .execute();
    for (const row of written) rowIds.set(row.public_id, row.id);
  }
  return rowIds;
}

/** Replaces the ordered images of these goods or notes with `links`. */
async function replaceImages<T extends 'goods_images' | 'note_images'>(
  trx: Kysely<Database>,
  table: T,
  owners: Iterable<number>,
  links: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (const slice of idSlices(owners)) {
    // Both link tables have the same shape; only the owner column's name differs.
    const remove =
      table === 'goods_images'
        ? trx.deleteFrom('goods_images').where('goods_id', 'in', slice)
        : trx.deleteFrom('note_images').where('note_id', 'in', slice);
    await remove.execute();
  }
  for (const slice of rowSlices(links, 3)) {
    await trx.insertInto(table).values(slice).execute();
  }
}

export async function writeGoods(
  trx: Kysely<Database>,
  events: readonly EventOf<'goods.upserted'>[],
  { users, images }: Lookups,
): Promise<Map<string, number>> {
  const sorted = byId(events);
  const rowIds = await upsertItems(
    trx,
    'goods',
    sorted.map(({ data }) => ({
      public_id: data.id,
      owner_id: rowId(users, data.ownerId),
      name: data.name,
      work: data.work,
      character: data.character,
      category: data.category,
      price_fen: data.priceFen,
      status: data.status,
      text: data.text,
      tags: JSON.stringify(data.tags),
      likes: data.likes,
      wants: data.wants,
      visibility: data.visibility,
      created_at: storedTime(data.createdAt),
      removed_at: null,
    })),
  );
  await replaceImages(
    trx,
    'goods_images',
    rowIds.values(),
    sorted.flatMap(({ data }) =>
      data.images.map((image, position) => ({
        goods_id: rowId(rowIds, data.id),
        image_id: imageId(images, image),
        position,
      })),
    ),
  );
  return rowIds;
}

/** Cabinets, each listing the goods of its list that are here, in the list's order. */
export async function writeCabinets(
  trx: Kysely<Database>,
  events: readonly EventOf<'cabinet.upserted'>[],
  { users, images, goods }: Lookups & { goods: ReadonlyMap<string, number> },
): Promise<void> {
  const sorted = byId(events);
  const rowIds = await upsertItems(
    trx,
    'cabinets',
    sorted.map(({ data }) => ({
      public_id: data.id,
      owner_id: rowId(users, data.ownerId),
      name: data.name,
      cover_image_id: imageId(images, data.cover),
      text: data.text,
      likes: data.likes,
      visibility: data.visibility,
      created_at: storedTime(data.createdAt),
      removed_at: null,
    })),
  );
  for (const slice of idSlices(rowIds.values())) {
    await trx.deleteFrom('cabinet_goods').where('cabinet_id', 'in', slice).execute();
  }
  // A cabinet at a time: 250 cabinets of 1,000 goods are 250,000 links, never built at once.
  await writeRowsOf(
    sorted,
    ({ data }) => {
      const cabinetId = rowId(rowIds, data.id);
      const listed = new Set<number>();
      return data.goodsIds.flatMap((goodsId, position) => {
        const id = goods.get(goodsId);
        // A goods listed twice keeps its first place.
        if (id === undefined || listed.has(id)) return [];
        listed.add(id);
        return [{ cabinet_id: cabinetId, goods_id: id, position }];
      });
    },
    (slice) => trx.insertInto('cabinet_goods').values(slice).execute(),
  );
}

/** Notes, with their images and the top comments (the platform's count kept beside them). */
export async function writeNotes(
  trx: Kysely<Database>,
  events: readonly EventOf<'note.upserted'>[],
  { users, images }: Lookups,
): Promise<void> {
  const sorted = byId(events);
  const rowIds = await upsertItems(
    trx,
    'notes',
    sorted.map(({ data }) => ({
      public_id: data.id,
      author_id: rowId(users, data.authorId),
      title: data.title,
      text: data.text,
      tags: JSON.stringify(data.tags),
      likes: data.likes,
      collects: data.collects,
      comment_count: data.comments,
      visibility: data.visibility,
      created_at: storedTime(data.createdAt),
      removed_at: null,
    })),
  );
  await replaceImages(
    trx,
    'note_images',
    rowIds.values(),
    sorted.flatMap(({ data }) =>
      data.images.map((image, position) => ({
        note_id: rowId(rowIds, data.id),
        image_id: imageId(images, image),
        position,
      })),
    ),
  );
  // By id: a comment the batch names twice (moved between two of its notes) is written once,
  // where it was named last.
  const commentsById = new Map(
    sorted.flatMap(({ data }) =>
      data.topComments.map(
        (comment) =>
          [
            comment.id,
            {
              public_id: comment.id,
              note_id: rowId(rowIds, data.id),
              author_id: rowId(users, comment.authorId),
              text: comment.text,
              likes: comment.likes,
              created_at: storedTime(comment.createdAt),
              removed_at: null,
            },
          ] as const,
      ),
    ),
  );
  const comments = [...commentsById.values()];
  // The notes' comments are the ones sent now: the others go (a comment moved keeps its id).
  for (const slice of idSlices(rowIds.values())) {
    await trx.deleteFrom('comments').where('note_id', 'in', slice).execute();
  }
  for (const slice of idSlices(comments.map((comment) => comment.public_id))) {
    await trx.deleteFrom('comments').where('public_id', 'in', slice).execute();
  }
  for (const slice of rowSlices(comments, 7)) {
    await trx.insertInto('comments').values(slice).execute();
  }
}

/** Designs; one the platform marks unavailable is retired (its redeemers keep it). */
export async function writeDesigns(
  trx: Kysely<Database>,
  events: readonly EventOf<'design.upserted'>[],
  { users, images, now }: Lookups,
): Promise<void> {
  for (const slice of rowSlices(byId(events), 12)) {
    await trx
      .insertInto('designs')
      .values(
        slice.map(({ data }) => ({
          public_id: data.id,
          designer_id: rowId(users, data.designerId),
          title: data.title,
          preview_image_id: imageId(images, data.preview),
          price_points: data.pricePoints,
          created_at: now,
          retired_at: data.available ? null : now,
          // Sent whole: a field left out is no longer known.
          file_format: data.file?.format ?? null,
          file_width: data.file?.width ?? null,
          file_height: data.file?.height ?? null,
          file_bytes: data.file?.bytes ?? null,
          use_allowed: data.use ?? null,
        })),
      )
      .onConflict((conflict) =>
        conflict.column('public_id').doUpdateSet((eb) => ({
          designer_id: eb.ref('excluded.designer_id'),
          title: eb.ref('excluded.title'),
          preview_image_id: eb.ref('excluded.preview_image_id'),
          price_points: eb.ref('excluded.price_points'),
          file_format: eb.ref('excluded.file_format'),
          file_width: eb.ref('excluded.file_width'),
          file_height: eb.ref('excluded.file_height'),
          file_bytes: eb.ref('excluded.file_bytes'),
          use_allowed: eb.ref('excluded.use_allowed'),
          // Retired when it was first marked unavailable; available again, not retired.
          retired_at: sql<
            string | null
          >`case when excluded.retired_at is null then null else coalesce(designs.retired_at, excluded.retired_at) end`,
        })),
      )
      .execute();
  }
}
