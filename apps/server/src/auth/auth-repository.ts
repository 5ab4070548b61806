import type { Db } from '../db/database.ts';

/** The site's copy of a token's user, as the authenticator weighs it (user-authenticator.ts). */
export interface AccountStanding {
  id: number;
  publicId: string;
  /** When the user confirmed a deletion still pending (cool-off), or null. */
  deletionRequestedAt: string | null;
}

/**
 * The user a token names, while the account is not deleted, with the deletion the user confirmed
 * and has neither cancelled nor seen completed; undefined for a deleted or unknown user.
 */
export async function accountStanding(
  db: Db,
  publicId: string,
): Promise<AccountStanding | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('account_deletion_requests as pending', (join) =>
      join
        .onRef('pending.user_id', '=', 'users.id')
        .on('pending.cancelled_at', 'is', null)
        .on('pending.completed_at', 'is', null),
    )
    .select(['users.id as id', 'users.public_id as publicId', 'pending.requested_at'])
    .where('users.public_id', '=', publicId)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, publicId: row.publicId, deletionRequestedAt: row.requested_at };
}
