import { createHash } from 'node:crypto';
import type { Language } from '@guquan/contract/language';
import type { ShareReader, ShareResult } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { renderDocument, type DocumentSettings } from './page-document.ts';
import { cachedPage, type CachedPage, type RenderedPageCache } from './rendered-page-cache.ts';

const SHARE_PAGES: Readonly<Record<string, ShareKind>> = {
  [`${BASE_PATH}/AppShare/goodsShare`]: 'goods',
  [`${BASE_PATH}/AppShare/cabinetShare`]: 'cabinet',
  [`${BASE_PATH}/AppShare/notesShare`]: 'note',
};

/** The kind of share a page path shows, if it is a share page. */
export function sharePageKind(pathname: string): ShareKind | undefined {
  return Object.hasOwn(SHARE_PAGES, pathname) ? SHARE_PAGES[pathname] : undefined;
}

/** The `?id=` exactly as the page's loader reads it (the first one, decoded by URLSearchParams). */
export function shareIdOf(url: string): string | null {
  return new URL(url, 'http://page.internal').searchParams.get('id');
}

/**
 * The address a share page is rendered for: its path, `?id=` (the only parameter it reads) and
 * the language it is in. `?lang=en`, no `lang` with an English Accept-Language, or a messenger's
 * tracking parameters all give the same page, whose og:url is this address (a preview opens the
 * page in the language it was shared in).
 */
export function canonicalShareUrl(
  pathname: string,
  rawId: string | null,
  language: Language,
): string {
  const query = new URLSearchParams(rawId === null ? {} : { id: rawId });
  query.set('lang', language);
  return `${pathname}?${query.toString()}`;
}

export interface ContentVersionParts {
  buildId: string;
  /** The page's canonical address: the markup carries it (og:url). */
  url: string;
  language: Language;
  /** What the share reader answered: the item, or why it cannot be shown. */
  result: ShareResult<ShareKind>;
}

/**
 * The version of what a share page shows: the item as the API would send it (or its state), the
 * language, the URL and the build. Any change to what the page shows changes it; it is the page's
 * ETag and its key in the cache of rendered pages.
 */
export function shareContentVersion({
  buildId,
  url,
  language,
  result,
}: ContentVersionParts): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([buildId, url, language, result]))
    .digest('base64url')
    .slice(0, 27);
  return `W/"${digest}"`;
}

/** A reader that answers the page's own item with what was already read, without a second query. */
function readerWithResult<K extends ShareKind>(
  shares: ShareReader,
  kind: K,
  rawId: string | null,
  result: ShareResult<K>,
): ShareReader {
  return {
    read<R extends ShareKind>(asked: R, id: unknown): Promise<ShareResult<R>> {
      // Same kind and id as was read: the very answer (R is K here, which TypeScript cannot see).
      const askedKind: ShareKind = asked;
      if (askedKind === kind && id === rawId)
        return Promise.resolve(result as unknown as ShareResult<R>);
      return shares.read(asked, id);
    },
  };
}

/** What the share pages tell the metrics (operations/metrics.ts), where it happens. */
export interface SharePageObserver {
  cacheHit(): void;
  cacheMiss(): void;
  rendered(seconds: number): void;
}

export interface SharePageSource {
  settings: DocumentSettings;
  shares: ShareReader;
  cache: RenderedPageCache;
  /** How long one read of an item answers for it (SHARE_REUSE_MS). */
  reuseMs: number;
  /** Milliseconds; tests move it. */
  now?: () => number;
  observer?: SharePageObserver;
}

export interface SharePageRequest {
  kind: ShareKind;
  /** The canonical address (canonicalShareUrl). */
  url: string;
  language: Language;
}

interface ReadVersion {
  version: string;
  reader: ShareReader;
}

/** How many pages' last reads are remembered at most (each is a few hundred bytes). */
const MAX_RECENT_READS = 10_000;

/**
 * Share pages rendered once per version of what they show. The item is read (as the JSON API
 * reads it) at most once per `reuseMs` per page, however many visitors come, and its version
 * derived; the rendered page for that version comes from a bounded cache. A change is visible at
 * the origin within `reuseMs`, and a hot page costs neither a query nor a render. Reads and renders
 * that overlap share one.
 */
export function createSharePages({
  settings,
  shares,
  cache,
  reuseMs,
  now = () => Date.now(),
  observer,
}: SharePageSource) {
  const rendering = new Map<string, Promise<CachedPage>>();
  const reading = new Map<string, Promise<ReadVersion>>();
  // Oldest first (a refreshed entry is deleted and set again), so expired ones lead.
  const recent = new Map<string, { at: number; read: ReadVersion }>();

  async function render(
    version: string,
    request: SharePageRequest,
    reader: ShareReader,
  ): Promise<CachedPage> {
    // The markup does not depend on the device here (the app prompt's guide renders closed), so
    // one page serves every visitor; a test checks that.
    const started = performance.now();
    const document = await renderDocument(settings, {
      url: request.url,
      language: request.language,
      shares: reader,
    });
    observer?.rendered((performance.now() - started) / 1000);
    const page = cachedPage(document.status, document.html, version, document.csp);
    cache.set(version, page);
    return page;
  }

  async function read(request: SharePageRequest): Promise<ReadVersion> {
    const rawId = shareIdOf(request.url);
    const result = await shares.read(request.kind, rawId);
    const version = shareContentVersion({
      buildId: settings.build.buildId,
      url: request.url,
      language: request.language,
      result,
    });
    return { version, reader: readerWithResult(shares, request.kind, rawId, result) };
  }

  function remember(key: string, read: ReadVersion, at: number): void {
    recent.delete(key);
    recent.set(key, { at, read });
    for (const [oldest, entry] of recent) {
      if (recent.size <= MAX_RECENT_READS && at - entry.at < reuseMs) break;
      recent.delete(oldest);
    }
  }

  return {
    /** The page's current version: read at most once per `reuseMs`. */
    async version(request: SharePageRequest): Promise<ReadVersion> {
      const key = `${request.kind}\n${request.url}\n${request.language}`;
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

    /** The page of that version: from the cache, or rendered now (once, however many ask). */
    async page(version: string, request: SharePageRequest, reader: ShareReader) {
      const cached = cache.get(version);
      if (cached) {
        observer?.cacheHit();
        return cached;
      }
      observer?.cacheMiss();
      let pending = rendering.get(version);
      if (!pending) {
        pending = render(version, request, reader).finally(() => rendering.delete(version));
        rendering.set(version, pending);
      }
      return pending;
    },
  };
}

export type SharePages = ReturnType<typeof createSharePages>;
