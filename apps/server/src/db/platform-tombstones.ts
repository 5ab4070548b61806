import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './database.ts';
import type { Database, PlatformEntityType } from './schema.ts';

/**
 * What the site remembers of what is gone (docs/platform.md, "Deleted accounts"): a row of
 * platform_versions marked `removed`, by the entity's type and public id, and nothing else of it.
 * A removal's tombstone stops an older upsert bringing an item back; a deleted account's is final:
 * nothing the platform sends brings the account back. The account deletion (the site's job, or the
 * platform's `user.deleted`) leaves one for the account and one for each of its goods, cabinets and
 * notes, whose pages answer 410 from then on.
 */

/**
 * How platform_versions names an entity. A user's id is kept as its SHA-256 (base64url, 43
 * characters), never as itself: the version row outlives a deleted account (it is the tombstone
 * that stops a later event bringing the account back), and after a deletion the site keeps no id
 * of the person (deleted-user-walk.test.ts). Items keep their ids.
 */
export function versionKey(type: PlatformEntityType, publicId: string): string {
  return type === 'user' ? createHash('sha256').update(publicId).digest('base64url') : publicId;
}

/** `true` as each engine keeps a boolean (SQLite's 1). */
function removedValue(db: Kysely<Database>) {
  return isPostgres(db) ? sql<boolean>`true` : sql<boolean>`1`;
}

export interface GoneEntity {
  type: PlatformEntityType;
  /** The platform's id (a user's is hashed here, as every user's version row is). */
  id: string;
}

/**
 * Marks these entities removed, keeping the version stored (0 for one the platform never sent: an
 * item the site wrote itself). The caller holds the platform copy's lock (PLATFORM_COPY_LOCK).
 */
export async function rememberRemoved(
  db: Kysely<Database>,
  entities: readonly GoneEntity[],
  at: string,
): Promise<void> {
  if (entities.length === 0) return;
  const removed = removedValue(db);
  // Once each (a statement may not update a row twice), sorted: rows are locked in one order,
  // as claimNewerVersions locks them.
  const byKey = new Map(
    entities.map(({ type, id }) => {
      const row = { type, public_id: versionKey(type, id) };
      return [`${row.type}:${row.public_id}`, row] as const;
    }),
  );
  const rows = [...byKey].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
  for (let start = 0; start < rows.length; start += 1_000) {
    await db
      .insertInto('platform_versions')
      .values(
        rows
          .slice(start, start + 1_000)
          .map((row) => ({ ...row, version: 0, removed, updated_at: at })),
      )
      .onConflict((conflict) =>
        conflict.columns(['type', 'public_id']).doUpdateSet({ removed, updated_at: at }),
      )
      .execute();
  }
}

/** Whether the platform removed this entity, or its account was deleted (a tombstone). */
export async function isRemoved(
  db: Kysely<Database>,
  type: PlatformEntityType,
  publicId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('platform_versions')
    .select('version')
    .where('type', '=', type)
    .where('public_id', '=', versionKey(type, publicId))
    .where('removed', '=', removedValue(db))
    .executeTakeFirst();
  return row !== undefined;
}
