import { createHash } from 'node:crypto';
import type { Language } from '@guquan/contract/language';
import type { SharePageData } from '@guquan/contract/page-render';
import type { PublicId, ShareKind } from '@guquan/contract/share-paths';
import type { ShareReader } from '../shares/share-reader.ts';
import { pagesOnce, type CachedPage, type RenderedPageCache } from './rendered-page-cache.ts';

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
 * to be missing) and the item as the API would send it, or its state. Any change to what the page
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
  shares: ShareReader;
  cache: RenderedPageCache;
  /** Renders the page of a read (the cache keeps what it gives). */
  render: (read: ShareRead) => Promise<CachedPage>;
  /** How long one read of an item answers for it (SHARE_REUSE_MS). */
  reuseMs: number;
  /** Milliseconds; tests move it. */
  now?: () => number;
  observer?: SharePageObserver;
}

/** How many pages' last reads are remembered at most (each is a few hundred bytes). */
const MAX_RECENT_READS = 10_000;

/**
 * Share pages rendered once per version of what they show: reading, hashing, caching. The item is
 * read (as the JSON API reads it) at most once per `reuseMs` per page, however many visitors come,
 * and its version derived; the rendered page of that version comes from a bounded cache. A change
 * is visible at the origin within `reuseMs`, and a hot page costs neither a query nor a render.
 * Reads and renders that overlap share one.
 */
export function createSharePages({
  buildId,
  linkOrigin = '',
  shares,
  cache,
  render,
  reuseMs,
  now = () => Date.now(),
  observer,
}: SharePageSource) {
  const pageOnce = pagesOnce(cache);
  const reading = new Map<string, Promise<ShareRead>>();
  // Oldest first (a refreshed entry is deleted and set again), so expired ones lead.
  const recent = new Map<string, { at: number; read: ShareRead }>();

  async function read({ kind, id, language, appMissing }: SharePageRequest): Promise<ShareRead> {
    const result = await shares.read(kind, id);
    const data = { kind, result } as SharePageData;
    // An unknown id names nothing the app could open either: the page is the kind's own.
    const pageId = result.state === 'invalid_id' || result.state === 'not_found' ? undefined : id;
    const unversioned = { kind, language, appMissing, data, pageId };
    return { ...unversioned, version: shareContentVersion(buildId, linkOrigin, unversioned) };
  }

  function remember(key: string, fresh: ShareRead, at: number): void {
    recent.delete(key);
    recent.set(key, { at, read: fresh });
    for (const [oldest, entry] of recent) {
      if (recent.size <= MAX_RECENT_READS && at - entry.at < reuseMs) break;
      recent.delete(oldest);
    }
  }

  return {
    /** What the page shows now: read at most once per `reuseMs`. */
    async read(request: SharePageRequest): Promise<ShareRead> {
      const key = `${request.kind}\n${request.id ?? ''}\n${request.language}\n${request.appMissing}`;
      const started = now();
      const known = recent.get(key);
      if (known && started - known.at < reuseMs) return known.read;
      let pending = reading.get(key);
      if (!pending) {
        pending = read(request).finally(() => reading.delete(key));
        reading.set(key, pending);
        remember(key, await pending, started);
      }
      return pending;
    },

    /**
     * The page of a read: from the cache, from a render already under way, or rendered now when
     * `mayRender` allows it (undefined when it does not). Each version is rendered once, however
     * many ask.
     */
    page(fresh: ShareRead, mayRender: () => boolean = () => true): Promise<CachedPage | undefined> {
      if (cache.get(fresh.version)) observer?.cacheHit();
      else observer?.cacheMiss();
      return pageOnce(
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
