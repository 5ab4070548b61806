import { LRUCache } from 'lru-cache';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/** A finished page, ready to send to anyone who asks for the same content. */
export interface CachedPage {
  status: number;
  html: Buffer;
  /** Strong validator: the content version the page was rendered for. */
  etag: string;
  csp: string;
  /** The page's robots directive (`noindex, nofollow`), from its head: sent as X-Robots-Tag too. */
  robots: string | undefined;
  /** The page's bytes compressed, per encoding, made when first asked for (see encodedBody). */
  encoded: Map<PageEncoding, EncodedCopy>;
}

export type PageEncoding = 'br' | 'gzip';

interface EncodedCopy {
  /** Until the first copy is made, the promise of it: those who ask meanwhile wait for it too. */
  bytes: Buffer | Promise<Buffer>;
  /** Made at the smallest size (the page proved worth it), or being made so. */
  best: boolean;
}

export function cachedPage(
  status: number,
  html: string,
  etag: string,
  csp: string,
  robots: string | undefined,
): CachedPage {
  return { status, html: Buffer.from(html, 'utf8'), etag, csp, robots, encoded: new Map() };
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Two ways to compress. Most pages are sent once (a one-off id, an unknown path): they get the
 * quick way, a millisecond or two for a share page. A page sent again is worth the smallest copy,
 * made once in the background and sent from then on. Both run on libuv's thread pool, never on the
 * event loop, so a burst of new pages does not hold up the pages already made.
 */
function compress(html: Buffer, encoding: PageEncoding, best: boolean): Promise<Buffer> {
  if (encoding === 'gzip') return gzipped(html, { level: best ? 9 : 5 });
  return brotli(html, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: best ? 9 : 4,
      [zlib.BROTLI_PARAM_SIZE_HINT]: html.length,
    },
  });
}

/** Replaces a page's quick copy with the smallest, once; the quick one serves until it is made. */
function makeBest(page: CachedPage, encoding: PageEncoding, copy: EncodedCopy): void {
  copy.best = true;
  compress(page.html, encoding, true).then(
    (bytes) => {
      copy.bytes = bytes;
    },
    () => {
      // Out of memory or the like: the quick copy stays, which is still correct.
    },
  );
}

/**
 * The page in an encoding the client accepts: compressed the quick way the first time, the
 * smallest way once the page is sent again. Concurrent first requests share one compression.
 */
export async function encodedBody(
  page: CachedPage,
  encoding: PageEncoding | undefined,
): Promise<Buffer> {
  if (encoding === undefined) return page.html;
  const copy = page.encoded.get(encoding);
  if (copy) {
    const bytes = await copy.bytes;
    if (!copy.best) makeBest(page, encoding, copy);
    return bytes;
  }
  const quick: EncodedCopy = { bytes: compress(page.html, encoding, false), best: false };
  page.encoded.set(encoding, quick);
  try {
    quick.bytes = await quick.bytes;
    return quick.bytes;
  } catch (error) {
    page.encoded.delete(encoding);
    throw error;
  }
}

/** What a page holds in memory, its compressed copies included. */
export function pageBytes(page: CachedPage): number {
  let bytes = page.html.length + page.csp.length + page.etag.length;
  for (const copy of page.encoded.values())
    if (Buffer.isBuffer(copy.bytes)) bytes += copy.bytes.length;
  return bytes;
}

export interface RenderedPageCache {
  get(key: string): CachedPage | undefined;
  set(key: string, page: CachedPage): void;
  /**
   * The page under `key`: from the cache, from a render of it already under way, or from `render`
   * now (if `mayRender` allows it), kept for the next; undefined when it may not. The one place
   * where a page is rendered into the cache.
   */
  once: PageOnce;
  /** Entries and bytes held now. */
  readonly size: number;
  readonly bytes: number;
}

/** Renders a page for the cache. */
type Render = () => Promise<CachedPage>;

/** A page from the cache or rendered into it; undefined when it may not be (`mayRender`). */
export interface PageOnce {
  (key: string, render: Render): Promise<CachedPage>;
  (key: string, render: Render, mayRender: () => boolean): Promise<CachedPage | undefined>;
}

/** A page as the cache holds it, with the bytes it was counted for. */
interface Entry {
  page: CachedPage;
  bytes: number;
}

const entryOf = (page: CachedPage): Entry => ({ page, bytes: pageBytes(page) });
const always = () => true;

/**
 * A least-recently-used cache of rendered pages, bounded by bytes (lru-cache's `maxSize`): the
 * least recently used pages go first when a new one would pass the limit, and a page larger than
 * the limit is never kept. A page's compressed copies are made after it is stored: each look-up
 * counts them, and a page that grew is stored again at its new size.
 *
 * Renders go through lru-cache's `fetch`, so requests for a page being rendered wait for that one
 * render. A render under way counts no bytes, and is not abandoned when the cache drops it to make
 * room (`ignoreFetchAbort`): those who wait get the page all the same, and it is stored. (Only a
 * request that comes after such a drop, before the render ends, renders the page again: the drop
 * needs more than the whole cache stored within one render.)
 */
export function createRenderedPageCache({
  maxBytes,
  onEvict,
}: {
  maxBytes: number;
  /** Told of each page dropped to make room (a metric). */
  onEvict?: () => void;
}): RenderedPageCache {
  const entries = new LRUCache<string, Entry, Render>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => entry.bytes,
    backgroundFetchSize: 0,
    ignoreFetchAbort: true,
    fetchMethod: async (_key, _stale, { context: render }) => entryOf(await render()),
    ...(onEvict
      ? {
          dispose: (_entry: Entry, _key: string, reason: LRUCache.DisposeReason) => {
            if (reason === 'evict') onEvict();
          },
        }
      : {}),
  });

  function get(key: string): CachedPage | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    // Compressed copies made since it was stored count too.
    const bytes = pageBytes(entry.page);
    if (bytes !== entry.bytes) entries.set(key, { page: entry.page, bytes });
    return entry.page;
  }

  /** Whether a render of `key` is under way (lru-cache says so only in a look-up's status). */
  function rendering(key: string): boolean {
    const status: LRUCache.Status<string, Entry, Render> = {};
    entries.get(key, { status });
    return status.get === 'fetching';
  }

  return {
    get,
    set(key, page) {
      entries.set(key, entryOf(page));
    },
    once: (async (key: string, render: Render, mayRender: () => boolean = always) => {
      const cached = get(key);
      if (cached) return cached;
      if (!rendering(key) && !mayRender()) return undefined;
      const entry = await entries.forceFetch(key, { context: render });
      // lru-cache stores what a render gives unless it dropped the render meanwhile to make room:
      // then it is stored now, as the newest page, as every render is.
      if (!entries.has(key) && !rendering(key)) entries.set(key, entry);
      return entry.page;
    }) as PageOnce,
    get size() {
      return entries.size;
    },
    get bytes() {
      return entries.calculatedSize;
    },
  };
}
