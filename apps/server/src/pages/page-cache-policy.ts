/**
 * How long caches may keep a page. Every origin answer is current: a share page reads its item on
 * every request (its ETag is the version of what it shows), so a change shows at the origin at
 * once. What a shared cache (nginx, a CDN) may add is bounded by these headers:
 *
 *   fresh for SHARE_FRESH_SECONDS, then served stale for at most SHARE_STALE_SECONDS while it
 *   revalidates, so a change reaches every visitor within SHARE_CHANGE_BOUND_SECONDS (5 s).
 *
 * Browsers (max-age=0) revalidate every visit and mostly get a 304.
 */
export const SHARE_FRESH_SECONDS = 2;
export const SHARE_STALE_SECONDS = 3;
export const SHARE_CHANGE_BOUND_SECONDS = SHARE_FRESH_SECONDS + SHARE_STALE_SECONDS;

/** Where the page's language came from. */
export type LanguageSource = 'query' | 'header';

/**
 * A share page's Cache-Control.
 * - The language chosen by `?lang=`: the URL names the whole page, so shared caches may keep it.
 * - The language chosen from Accept-Language: no shared cache may keep it (`private`). A shared
 *   cache keys on the URL and would otherwise give one visitor's language to the next, and
 *   `Vary: Accept-Language` would split it per raw header value (every browser writes it
 *   differently), which is not a cache. A proxy that wants these too can normalise the header to
 *   `?lang=` itself (docs/decisions/0007-cacheable-pages.md). The origin's own cache and the
 *   browser's 304s still serve these.
 * - Error states (400, 403, 404, 410) are as changeable as the item (made public again), so they
 *   are kept as briefly, without a stale period: a removed item's link shared to thousands still
 *   reaches the origin at most once per cache and 2 s.
 */
export function sharePageCacheControl(status: number, language: LanguageSource): string {
  if (status >= 500) return 'no-store';
  if (language === 'header') return 'private, no-cache';
  if (status >= 400) return `public, max-age=0, s-maxage=${SHARE_FRESH_SECONDS}`;
  return `public, max-age=0, s-maxage=${SHARE_FRESH_SECONDS}, stale-while-revalidate=${SHARE_STALE_SECONDS}`;
}

/**
 * Pages built ahead and in-app pages: revalidated on every visit (the ETag makes that a 304), yet
 * allowed in the back-forward cache, which no-store would rule out (docs/decisions/0002).
 */
export const REVALIDATED_PAGE_CACHE_CONTROL = 'no-cache';
