import { LRUCache } from 'lru-cache';
import type { ShareResult } from '@guquan/contract/share';
import type { PublicId, ShareKind } from '@guquan/contract/share-paths';
import type { WorkShelf } from '@guquan/contract/share-shelf';
import type { Db } from '../db/database.ts';
import { reuseWindow } from '../http/reuse-window.ts';
import { shelfGoods, workOfRemovedGoods } from './work-shelf.ts';

/** How many shelves are remembered at most (one per work and item shown, a few kilobytes each). */
const MAX_REMEMBERED = 2_000;

/** The shelf that ends a share's page, given what reading the share gave. */
export interface WorkShelfReader {
  read(
    kind: ShareKind,
    id: PublicId | undefined,
    result: ShareResult<ShareKind>,
  ): Promise<WorkShelf>;
}

/** What a shelf is made of: the work whose goods it shows (null: any) and the item left out. */
interface ShelfSource {
  work: string | null;
  except: string | null;
}

/**
 * Shelves read at most once per `reuseMs` each, as the items are (recent-share-reads.ts): a hot
 * page costs no query, and a change to the shelf's goods is seen within `reuseMs`, so the page's
 * version (and its ETag) changes with it. Pages that name no item share one shelf, the newest
 * goods. A result stays the same object while it is reused, so the pages derived from it can be
 * kept with it (pages/share-page-cache.ts). `now` is the clock in milliseconds (tests move it).
 */
export function createWorkShelfReader(
  db: Db,
  reuseMs: number,
  now?: () => number,
): WorkShelfReader {
  const recent = new LRUCache<string, Promise<WorkShelf>>({
    max: MAX_REMEMBERED,
    ...reuseWindow(reuseMs, now),
  });

  function remembered(key: string, read: () => Promise<WorkShelf>): Promise<WorkShelf> {
    const known = recent.get(key);
    if (known) return known;
    const shelf = read();
    recent.set(key, shelf);
    // A failed read is not kept: the next request asks again.
    shelf.catch(() => {
      if (recent.peek(key) === shelf) recent.delete(key);
    });
    return shelf;
  }

  async function shelfOf({ work, except }: ShelfSource): Promise<WorkShelf> {
    if (work !== null) {
      const goods = await shelfGoods(db, { work, except });
      if (goods.length > 0) return { work, goods };
    }
    return { work: null, goods: await shelfGoods(db, { work: null, except }) };
  }

  return {
    /**
     * Which goods a page's shelf shows (docs/decisions/0027-work-shelf.md):
     * - a goods shown: the other public goods of its work;
     * - a goods removed that was public: those of the work it was of (the work was public);
     * - anything else (private: its work is the owner's; unknown or malformed ids; cabinets and
     *   notes, which have no one work): the newest public goods of any work.
     * A work with no other public goods falls back to the newest of any work, so a shelf is never
     * empty while anything is public.
     */
    read(kind, id, result) {
      if (kind === 'goods' && result.state === 'ok' && 'work' in result.item) {
        const source = { work: result.item.work, except: result.item.id };
        return remembered(`work\n${source.work}\n${source.except}`, () => shelfOf(source));
      }
      if (kind === 'goods' && result.state === 'removed' && id !== undefined)
        return remembered(`removed\n${id}`, async () =>
          shelfOf({ work: (await workOfRemovedGoods(db, id)) ?? null, except: id }),
        );
      return remembered('newest', () => shelfOf({ work: null, except: null }));
    },
  };
}
