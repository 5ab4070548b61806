import { rm } from 'node:fs/promises';
import type { DataPaths } from '../../config/data-paths.ts';
import type { Db } from '../../db/database.ts';
import { TABLES_CHILDREN_FIRST, userDataOf } from '../../db/user-data.ts';

/**
 * The demo data's beginning: a demo server whose copy is empty asks the stand-in platform for the
 * demo community (demo-community-arrival.ts), and `npm run seed` empties it for that. Nothing
 * here writes the platform's data: it arrives through the platform's doors.
 */

/** Whether the database holds nothing yet (first start). */
export async function isEmpty(db: Db): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  const image = await db.selectFrom('images').select('id').limit(1).executeTakeFirst();
  return user === undefined && image === undefined;
}

/** Deletes every row (but the schema's own, the plans on sale) and every image file. */
export async function wipeData(db: Db, paths: DataPaths): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of TABLES_CHILDREN_FIRST) {
      if (!userDataOf(table).rowsFromMigrations) await trx.deleteFrom(table).execute();
    }
  });
  await rm(paths.media, { recursive: true, force: true });
  await rm(paths.mediaCache, { recursive: true, force: true });
}
