import { LRUCache } from 'lru-cache';
import type { ShareResult } from '@guquan/contract/share';
import type { PublicId, ShareKind } from '@guquan/contract/share-paths';
import { reuseWindow } from '../http/reuse-window.ts';
import type { ShareReader } from './share-reader.ts';

/**
 * How long a read of an item answers for (seconds): the share pages, their pictures, posters and
 * the shelf read each item at most once in it. Part of the bound on how late a change shows
 * (pages/page-cache-policy.ts, SHARE_CHANGE_BOUND_SECONDS).
 */
export const SHARE_REUSE_SECONDS = 1;

/** How many items' last reads are remembered at most (each a few kilobytes). */
const MAX_REMEMBERED = 2_000;

/**
 * A reader that reads each item at most once per `reuseMs` however many ask (overlapping reads
 * share one): the one reader of the share pages, their pictures and posters (shares-plugin.ts). A hot item
 * costs no query per request, and a change (edited, made private, removed) is seen within
 * `reuseMs`. A result stays the same object while it is reused, so what is derived from it can be
 * kept with it (pages/share-page-cache.ts).
 *
 * The cache keeps the promise of each read, not its result: whoever asks while the read is under
 * way waits for that one, and a hot item's request gets the very promise back (lru-cache's
 * `fetch` would make a new promise and two option objects per request on the hottest path).
 * `now` is the clock in milliseconds (tests move it).
 */
export function recentShareReads(
  shares: ShareReader,
  reuseMs: number,
  now?: () => number,
): ShareReader {
  const recent = new LRUCache<string, Promise<ShareResult<ShareKind>>>({
    max: MAX_REMEMBERED,
    ...reuseWindow(reuseMs, now),
  });

  return {
    read<K extends ShareKind>(kind: K, id: PublicId | undefined): Promise<ShareResult<K>> {
      if (id === undefined) return shares.read(kind, id);
      const key = `${kind}/${id}`;
      const known = recent.get(key);
      if (known) return known as Promise<ShareResult<K>>;
      const result = shares.read(kind, id);
      recent.set(key, result);
      // A failed read is not kept: the next request asks again.
      result.catch(() => {
        if (recent.peek(key) === result) recent.delete(key);
      });
      return result;
    },
  };
}
