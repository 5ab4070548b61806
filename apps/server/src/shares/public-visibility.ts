import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { StoredShare } from './stored-share.ts';

/**
 * Who may see a goods, cabinet or note, and so its pictures: the ONE rule that share reading
 * (share-reader.ts), media serving (media/image-references.ts) and, through the image list, the
 * deletion job follow. An item is in public view when it is public, not removed, and its owner is
 * not in the cool-off of an account deletion (privacy policy 11.5: out of public view until they
 * cancel, gone after).
 */

/** Users who asked to delete their account and are in the cool-off (one column: user_id). */
export function usersInDeletionCoolOff(db: Kysely<Database>) {
  return db
    .selectFrom('account_deletion_requests')
    .select('account_deletion_requests.user_id')
    .where('account_deletion_requests.cancelled_at', 'is', null)
    .where('account_deletion_requests.completed_at', 'is', null);
}

export async function inDeletionCoolOff(db: Kysely<Database>, userId: number): Promise<boolean> {
  const pending = await usersInDeletionCoolOff(db)
    .where('account_deletion_requests.user_id', '=', userId)
    .executeTakeFirst();
  return pending !== undefined;
}

/** What a visitor gets of a stored share: the item, or why not. */
export type ShareVisibility = 'public' | 'removed' | 'private' | 'not_found';

export function shareVisibility(
  stored: Pick<StoredShare<unknown>, 'visibility' | 'removedAt' | 'ownerLeaving'>,
): ShareVisibility {
  // Removed wins over private: a removed item is gone, whatever its visibility was.
  if (stored.removedAt !== null) return 'removed';
  if (stored.visibility !== 'public') return 'private';
  // During the owner's deletion cool-off, as if it were not there.
  if (stored.ownerLeaving) return 'not_found';
  return 'public';
}

/** Row ids of the goods in public view. */
export function publicGoodsIds(db: Kysely<Database>) {
  return db
    .selectFrom('goods')
    .select('goods.id')
    .where('goods.visibility', '=', 'public')
    .where('goods.removed_at', 'is', null)
    .where('goods.owner_id', 'not in', usersInDeletionCoolOff(db));
}

/** Row ids of the cabinets in public view. */
export function publicCabinetIds(db: Kysely<Database>) {
  return db
    .selectFrom('cabinets')
    .select('cabinets.id')
    .where('cabinets.visibility', '=', 'public')
    .where('cabinets.removed_at', 'is', null)
    .where('cabinets.owner_id', 'not in', usersInDeletionCoolOff(db));
}

/** Row ids of the notes in public view. */
export function publicNoteIds(db: Kysely<Database>) {
  return db
    .selectFrom('notes')
    .select('notes.id')
    .where('notes.visibility', '=', 'public')
    .where('notes.removed_at', 'is', null)
    .where('notes.author_id', 'not in', usersInDeletionCoolOff(db));
}
