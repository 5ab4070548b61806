import { SHARED_CACHE_CLOCK_SLACK_SECONDS } from '../http/shared-caches.ts';
import type { LanguageSource } from '../http/request-language.ts';
import { SHARE_REUSE_SECONDS } from '../shares/recent-share-reads.ts';

/**
 * How long caches may keep a share page, and the bound it sets on how late a change shows
 * (removed, made private, owner in deletion cool-off, edited, a cabinet's goods changed), by the
 * rule of http/shared-caches.ts:
 *
 * - the origin reads an item at most once per SHARE_REUSE_SECONDS (shares/recent-share-reads.ts;
 *   however many visitors come, a share link's spike costs one query a second) and serves the
 *   page of what it read;
 * - a shared cache (nginx, a CDN) keeps it fresh for SHARE_FRESH_SECONDS, then serves it stale
 *   for at most SHARE_STALE_SECONDS while it revalidates, and nginx, counting whole seconds, up
 *   to a second more;
 * - browsers (max-age=0) revalidate every visit and mostly get a 304.
 *
 * So every visitor sees a change within SHARE_CHANGE_BOUND_SECONDS, 5 s, behind one shared cache.
 */
export const SHARE_FRESH_SECONDS = 1;
export const SHARE_STALE_SECONDS = 2;
export const SHARE_CHANGE_BOUND_SECONDS =
  SHARE_REUSE_SECONDS +
  SHARE_FRESH_SECONDS +
  SHARE_STALE_SECONDS +
  SHARED_CACHE_CLOCK_SLACK_SECONDS;

/**
 * A share page's Cache-Control.
 * - The language chosen by `?lang=`: the URL names the whole page, so shared caches may keep it.
 * - The language chosen from Accept-Language: no shared cache may keep it (`private`). A shared
 *   cache keys on the URL and would otherwise give one visitor's language to the next, and
 *   `Vary: Accept-Language` would split it per raw header value (every browser writes it
 *   differently), which is not a cache. A proxy that wants these too can normalise the header to
 *   `?lang=` itself (docs/decisions/0008-cacheable-pages.md). The origin's own cache and the
 *   browser's 304s still serve these.
 * - Error states (400, 403, 404, 410) are as changeable as the item (made public again), so they
 *   are kept as briefly, without a stale period: a removed item's link shared to thousands still
 *   reaches the origin at most once per cache and second.
 */
export function sharePageCacheControl(status: number, language: LanguageSource): string {
  if (status >= 500) return 'no-store';
  if (language === 'header') return 'private, no-cache';
  if (status >= 400) return `public, max-age=0, s-maxage=${SHARE_FRESH_SECONDS}`;
  return `public, max-age=0, s-maxage=${SHARE_FRESH_SECONDS}, stale-while-revalidate=${SHARE_STALE_SECONDS}`;
}

/**
 * A share page sent inside WeChat with the JS-SDK allowed in its policy: no shared cache may keep
 * it, or another visitor would get that policy (and a WeChat visitor may still get the plain one
 * from a cache, whose page then keeps its guide: docs/decisions/0012-wechat.md).
 */
export const WECHAT_SHARE_PAGE_CACHE_CONTROL = 'private, no-cache';

/**
 * Pages built ahead and in-app pages: revalidated on every visit (the ETag makes that a 304), yet
 * allowed in the back-forward cache, which no-store would rule out (docs/decisions/0002-html-no-cache-not-no-store.md).
 */
export const REVALIDATED_PAGE_CACHE_CONTROL = 'no-cache';

/**
 * Pictures whose address carries the version of what they show (preview cards, posters, WeChat
 * squares: pictures/): browsers keep them a year without asking again (a change gives a new
 * address), shared caches no longer than a share page (SHARE_FRESH_SECONDS plus
 * SHARE_STALE_SECONDS), so a picture of an item made private or removed is gone from them within
 * the same 5 seconds: the origin refuses any address that is no longer current.
 */
export const VERSIONED_PICTURE_CACHE_CONTROL = `public, max-age=31536000, immutable, s-maxage=${SHARE_FRESH_SECONDS}, stale-while-revalidate=${SHARE_STALE_SECONDS}`;
