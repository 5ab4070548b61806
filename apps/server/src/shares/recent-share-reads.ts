import type { ShareResult } from '@guquan/contract/share';
import type { PublicId, ShareKind } from '@guquan/contract/share-paths';
import type { ShareReader } from './share-reader.ts';

/** How many items' last reads are remembered at most (each a few kilobytes). */
const MAX_REMEMBERED = 2_000;

/**
 * A reader that reads each item at most once per `reuseMs` however many ask (overlapping reads
 * share one): the one reader of the share pages, their pictures and posters (shares-plugin.ts). A hot item
 * costs no query per request, and a change (edited, made private, removed) is seen within
 * `reuseMs`. A result stays the same object while it is reused, so what is derived from it can be
 * kept with it (pages/share-page-cache.ts).
 */
export function recentShareReads(
  shares: ShareReader,
  reuseMs: number,
  now: () => number = () => Date.now(),
): ShareReader {
  // Oldest first (a refreshed entry is deleted and set again), so expired ones lead.
  const recent = new Map<string, { at: number; result: Promise<ShareResult<ShareKind>> }>();

  function forget(at: number): void {
    for (const [key, entry] of recent) {
      if (recent.size <= MAX_REMEMBERED && at - entry.at < reuseMs) break;
      recent.delete(key);
    }
  }

  return {
    read<K extends ShareKind>(kind: K, id: PublicId | undefined): Promise<ShareResult<K>> {
      if (id === undefined) return shares.read(kind, id);
      const key = `${kind}/${id}`;
      const at = now();
      const known = recent.get(key);
      if (known && at - known.at < reuseMs) return known.result as Promise<ShareResult<K>>;
      const result = shares.read(kind, id);
      recent.delete(key);
      recent.set(key, { at, result });
      // A failed read is not kept: the next request asks again.
      result.catch(() => {
        if (recent.get(key)?.result === result) recent.delete(key);
      });
      forget(at);
      return result;
    },
  };
}
