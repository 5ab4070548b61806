import { createHash } from 'node:crypto';
import type { Language } from '@guquan/contract/language';
import type { SharePageData } from '@guquan/contract/page-render';
import type { ShareResult } from '@guquan/contract/share';
import { pageHasShelf, type PublicId, type ShareKind } from '@guquan/contract/share-paths';
import type { WorkShelf } from '@guquan/contract/share-shelf';
import type { ShareReader } from '../shares/share-reader.ts';
import type { WorkShelfReader } from '../shares/work-shelf-reader.ts';
import type { CachedPage, RenderedPageCache } from './rendered-page-cache.ts';

/** A share page as a request asks for it: its id parsed once where the request came in. */
export interface SharePageRequest {
  kind: ShareKind;
  /** Undefined: the id was missing or malformed. */
  id: PublicId | undefined;
  language: Language;
  /** Reached through the link domain's fallback (`app=missing`): the app is not installed. */
  appMissing: boolean;
}

/** One read of a share page's item, and the page that shows it. */
export interface ShareRead {
  kind: ShareKind;
  language: Language;
  /** The page offers the app first: the link domain sent the visitor (the app is missing). */
  appMissing: boolean;
  /** The item, or why it cannot be shown. */
  data: SharePageData;
  /**
   * The id the page is rendered for: the item's own when there is one (shown, private, removed: the
   * page names it, e.g. in Safari's app banner), none when there is nothing to name (a missing,
   * malformed or unknown id). Those pages are the same for every id: one per kind and language.
   */
  pageId: PublicId | undefined;
  /** The version of what the page shows: its ETag and its key in the cache of rendered pages. */
  version: string;
}

/** Whether a read names an item of its own: its page is rendered for it alone. */
export function showsOwnItem(read: ShareRead): boolean {
  return read.pageId !== undefined;
}

/**
 * The version of what a share page shows: the build, the app's link domain it links to (a
 * setting, changed without a new build), the page (kind, id, language, whether the app is known
 * to be missing) and the item as the API would send it, or its state, with the shelf that ends
 * the page (its goods' changes change the page). Any change to what the page
 * shows changes it.
 */
export function shareContentVersion(
  buildId: string,
  linkOrigin: string,
  read: Omit<ShareRead, 'version'>,
): string {
  const digest = createHash('sha256')
    .update(
      JSON.stringify([
        buildId,
        linkOrigin,
        read.kind,
        read.pageId ?? null,
        read.language,
        read.appMissing,
        read.data,
      ]),
    )
    .digest('base64url')
    .slice(0, 27);
  return `W/"${digest}"`;
}

/** What the share pages tell the metrics (operations/metrics.ts), where it happens. */
export interface SharePageObserver {
  cacheHit(): void;
  cacheMiss(): void;
  rendered(seconds: number): void;
}

export interface SharePageSource {
  buildId: string;
  /** The app's link domain (LINK_ORIGIN) the pages link to; '' when there is none. */
  linkOrigin?: string;
  /**
   * Reads the items, at most once per SHARE_REUSE_MS each (shares/recent-share-reads.ts, shared
   * with the pictures and the JSON API): the one rule for how fresh a share page is.
   */
  shares: ShareReader;
  /**
   * The shelf at the end of each page, read as often as the items (work-shelf-reader.ts): part of
   * what the page shows, so of its version. Without it, the pages end without one.
   */
  shelves?: WorkShelfReader;
  cache: RenderedPageCache;
  /** Renders the page of a read (the cache keeps what it gives). */
  render: (read: ShareRead) => Promise<CachedPage>;
  observer?: SharePageObserver;
}

/**
 * Share pages rendered once per version of what they show: reading, hashing, caching. The item is
 * read through `shares` (as the JSON API reads it, at most once per second per item however many
 * visitors come); each read's version per page (language, app missing) is derived once, kept with
 * the read itself; the rendered page of that version comes from a bounded cache. A hot page costs
 * neither a query nor a hash nor a render. Renders that overlap share one.
 */
export function createSharePages({
  buildId,
  linkOrigin = '',
  shares,
  shelves,
  cache,
  render,
  observer,
}: SharePageSource) {
  // The pages of each read and shelf, by language and whether the app is missing: a read lives as
  // long as the readers keep it (a second), and its pages with it. No cache with a rule of its
  // own, so no lru-cache (docs/decisions/0020-one-cache-library.md).
  const pagesOfRead = new WeakMap<object, WeakMap<object, Map<string, ShareRead>>>();
  const NO_SHELF = {};

  function versioned(
    { kind, id, language, appMissing }: SharePageRequest,
    result: ShareResult<ShareKind>,
    shelf: WorkShelf | undefined,
  ): ShareRead {
    const data = (shelf ? { kind, result, shelf } : { kind, result }) as SharePageData;
    // An unknown id names nothing the app could open either: the page is the kind's own.
    const pageId = result.state === 'invalid_id' || result.state === 'not_found' ? undefined : id;
    const unversioned = { kind, language, appMissing, data, pageId };
    return { ...unversioned, version: shareContentVersion(buildId, linkOrigin, unversioned) };
  }

  return {
    /** What the page shows now: its item as `shares` reads it, and the version of the page. */
    async read(request: SharePageRequest): Promise<ShareRead> {
      const result = await shares.read(request.kind, request.id);
      const shelf = pageHasShelf(request.kind, result.state)
        ? await shelves?.read(request.kind, request.id, result)
        : undefined;
      let ofShelf = pagesOfRead.get(result);
      if (!ofShelf) {
        ofShelf = new WeakMap();
        pagesOfRead.set(result, ofShelf);
      }
      let pages = ofShelf.get(shelf ?? NO_SHELF);
      if (!pages) {
        pages = new Map();
        ofShelf.set(shelf ?? NO_SHELF, pages);
      }
      const key = `${request.language}\n${request.appMissing}`;
      let page = pages.get(key);
      if (!page) {
        page = versioned(request, result, shelf);
        pages.set(key, page);
      }
      return page;
    },

    /**
     * The page of a read: from the cache, from a render already under way, or rendered now when
     * `mayRender` allows it (undefined when it does not). Each version is rendered once, however
     * many ask.
     */
    page(fresh: ShareRead, mayRender: () => boolean = () => true): Promise<CachedPage | undefined> {
      if (cache.get(fresh.version)) observer?.cacheHit();
      else observer?.cacheMiss();
      return cache.once(
        fresh.version,
        async () => {
          const started = performance.now();
          const page = await render(fresh);
          observer?.rendered((performance.now() - started) / 1000);
          return page;
        },
        mayRender,
      );
    },
  };
}

export type SharePages = ReturnType<typeof createSharePages>;
