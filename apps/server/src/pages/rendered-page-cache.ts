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
  /** Entries and bytes held now. */
  readonly size: number;
  readonly bytes: number;
}

/**
 * A least-recently-used cache of rendered pages, bounded by bytes: the oldest pages go first when
 * a new one would pass the limit. A Map keeps insertion order, so reading an entry moves it to the
 * end and the first entry is always the least recently used.
 */
export function createRenderedPageCache({
  maxBytes,
  onEvict,
}: {
  maxBytes: number;
  /** Told of each page dropped to make room (a metric). */
  onEvict?: () => void;
}): RenderedPageCache {
  const entries = new Map<string, { page: CachedPage; bytes: number }>();
  let bytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  /** Drops the least recently used pages (never `keep`) until the cache is within its limit. */
  const shrink = (keep: string) => {
    for (const [oldest] of entries) {
      if (bytes <= maxBytes) return;
      if (oldest !== keep) {
        remove(oldest);
        onEvict?.();
      }
    }
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      // Compressed copies made since it was stored count too.
      const now = pageBytes(entry.page);
      bytes += now - entry.bytes;
      entry.bytes = now;
      shrink(key);
      return entry.page;
    },
    set(key, page) {
      remove(key);
      const size = pageBytes(page);
      if (size > maxBytes) return;
      entries.set(key, { page, bytes: size });
      bytes += size;
      shrink(key);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/** Renders a page for the cache; undefined when it may not (pageOnce's `mayRender`). */
export interface PageOnce {
  (key: string, render: () => Promise<CachedPage>): Promise<CachedPage>;
  (
    key: string,
    render: () => Promise<CachedPage>,
    mayRender: () => boolean,
  ): Promise<CachedPage | undefined>;
}

/**
 * Pages rendered once into a cache: the page under `key` comes from the cache, from a render of it
 * already under way, or from `render` now (if `mayRender` allows it), kept for the next. The one
 * place where a page is rendered into the cache.
 */
export function pagesOnce(cache: RenderedPageCache): PageOnce {
  const rendering = new Map<string, Promise<CachedPage>>();
  return (async (
    key: string,
    render: () => Promise<CachedPage>,
    mayRender: () => boolean = () => true,
  ) => {
    const cached = cache.get(key);
    if (cached) return cached;
    let pending = rendering.get(key);
    if (!pending) {
      if (!mayRender()) return undefined;
      pending = render()
        .then((page) => {
          cache.set(key, page);
          return page;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  }) as PageOnce;
}
