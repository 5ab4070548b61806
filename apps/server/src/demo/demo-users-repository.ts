import type { Db } from '../db/database.ts';

/**
 * The demo log-in's reads of the users the platform sent (demo-routes.ts): who may be picked,
 * and whether a picked one may log in. A deleted account is neither: it can never log in again.
 */
export async function listDemoUsers(db: Db): Promise<{ id: string; nickname: string }[]> {
  return db
    .selectFrom('users')
    .select(['public_id as id', 'nickname'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** The user's public id while the account is not deleted; undefined otherwise. */
export async function activeUserId(db: Db, publicId: string): Promise<string | undefined> {
  const user = await db
    .selectFrom('users')
    .select('public_id as publicId')
    .where('public_id', '=', publicId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return user?.publicId;
}
