import { shareSchemas, type ShareItems, type ShareResult } from '@guquan/contract/share';
import type { PublicId, ShareKind } from '@guquan/contract/share-paths';
import type { Db } from '../db/database.ts';
import { isRemoved } from '../db/platform-tombstones.ts';
import { findCabinet } from './cabinet-repository.ts';
import { findGoods } from './goods-repository.ts';
import { findNote } from './note-repository.ts';
import { shareVisibility } from './public-visibility.ts';
import type { StoredShare } from './stored-share.ts';

/**
 * How each kind of share is found by its public id, and (`removed`) whether one that is not here
 * is gone for good: removed, or its account deleted (db/platform-tombstones.ts).
 */
export type ShareRepositories = {
  readonly [K in ShareKind]: (publicId: string) => Promise<StoredShare<ShareItems[K]> | undefined>;
} & { readonly removed?: (kind: ShareKind, publicId: string) => Promise<boolean> };

export function shareRepositories(db: Db): ShareRepositories {
  return {
    goods: (id) => findGoods(db, id),
    cabinet: (id) => findCabinet(db, id),
    note: (id) => findNote(db, id),
    removed: (kind, id) => isRemoved(db, kind, id),
  };
}

/**
 * How shares are read, for the API and the share pages alike. The id is parsed where the request
 * came in (parseShareId): undefined is a missing or malformed one.
 */
export interface ShareReader {
  read<K extends ShareKind>(kind: K, id: PublicId | undefined): Promise<ShareResult<K>>;
}

/** Thrown when the database holds something the contract does not allow: a bug, never shown. */
export class ShareContractError extends Error {
  override name = 'ShareContractError';
}

/**
 * What a visitor gets of a share: a missing or malformed id, an unknown item, what the one
 * visibility rule (public-visibility.ts) refuses (removed, private, owner leaving), or the item, checked
 * against the contract's schema so neither the API nor a page ever sends what the other end
 * would refuse.
 */
export function createShareReader(repositories: ShareRepositories): ShareReader {
  return {
    async read<K extends ShareKind>(kind: K, id: PublicId | undefined): Promise<ShareResult<K>> {
      if (id === undefined) return { state: 'invalid_id' };
      const find = repositories[kind] as (
        publicId: string,
      ) => Promise<StoredShare<ShareItems[K]> | undefined>;
      const stored = await find(id);
      if (!stored) {
        const removed = (await repositories.removed?.(kind, id)) ?? false;
        return { state: removed ? 'removed' : 'not_found' };
      }
      const visibility = shareVisibility(stored);
      if (visibility !== 'public') return { state: visibility };
      const checked = shareSchemas[kind].safeParse(stored.item);
      if (!checked.success) {
        throw new ShareContractError(
          `The stored ${kind} ${id} breaks the contract: ${checked.error.message}`,
        );
      }
      return { state: 'ok', item: checked.data as ShareItems[K] };
    },
  };
}
