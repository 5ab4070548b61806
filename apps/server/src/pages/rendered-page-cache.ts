import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/** A finished page, ready to send to anyone who asks for the same content. */
export interface CachedPage {
  status: number;
  html: Buffer;
  /** Strong validator: the content version the page was rendered for. */
  etag: string;
  csp: string;
  /** The robots directive of the page's head (`noindex, nofollow`), sent as X-Robots-Tag too. */
  robots: string | undefined;
  /** The page's bytes compressed, made on first request for each encoding. */
  encoded: Map<PageEncoding, Buffer>;
}

export type PageEncoding = 'br' | 'gzip';

const ROBOTS_META = /<meta name="robots" content="([^"<>]*)">/;

/** The robots meta tag's directive, looked for in the head only: the server writes it there. */
function robotsOf(html: string): string | undefined {
  const headEnd = html.indexOf('</head>');
  return ROBOTS_META.exec(headEnd === -1 ? '' : html.slice(0, headEnd))?.[1];
}

export function cachedPage(status: number, html: string, etag: string, csp: string): CachedPage {
  const robots = robotsOf(html);
  return { status, html: Buffer.from(html, 'utf8'), etag, csp, robots, encoded: new Map() };
}

/** The page in an encoding the client accepts (brotli first), compressed once per page. */
export function encodedBody(page: CachedPage, encoding: PageEncoding | undefined): Buffer {
  if (encoding === undefined) return page.html;
  let body = page.encoded.get(encoding);
  if (!body) {
    body =
      encoding === 'br'
        ? brotliCompressSync(page.html, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: 9,
              [zlib.BROTLI_PARAM_SIZE_HINT]: page.html.length,
            },
          })
        : gzipSync(page.html, { level: 9 });
    page.encoded.set(encoding, body);
  }
  return body;
}

/** What a page holds in memory, its compressed copies included. */
export function pageBytes(page: CachedPage): number {
  let bytes = page.html.length + page.csp.length + page.etag.length;
  for (const body of page.encoded.values()) bytes += body.length;
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
