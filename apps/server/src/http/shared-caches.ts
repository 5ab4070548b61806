import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What shared caches (nginx's proxy cache in deploy/nginx.conf.template, a CDN) may keep, and
 * for how long: the one rule for everything the site lets them hold. docs/decisions/0013-shared-caches-five-seconds.md says why.
 *
 * THE PROMISE: a change (an item made private, removed, its owner in the deletion cool-off,
 * edited) reaches every visitor within SHARED_CACHE_PROMISE_SECONDS, behind one shared cache, for
 * the first visitor after a pause as for the rest.
 *
 * How an answer keeps it:
 * - A shared cache keeps it fresh for `s-maxage`, then may serve it stale for at most
 *   `stale-while-revalidate` while one request asks the origin again; never longer. nginx must
 *   not be told `proxy_cache_use_stale updating` (it serves stale copies with no age limit and
 *   overrides the header) nor `error`/`http_5xx` for these (same, while the origin fails).
 * - nginx counts those seconds in whole seconds from the second it stored the copy, so a copy
 *   lives up to one second more: SHARED_CACHE_CLOCK_SLACK_SECONDS.
 * - Whatever the origin itself reuses (a share page's read, kept a second) counts too:
 *   origin reuse + s-maxage + stale-while-revalidate + slack ≤ SHARED_CACHE_PROMISE_SECONDS.
 * - A refusal (403, 404, 410) of something a cache may hold is cacheable as briefly, without a
 *   stale period, so it replaces the stored copy at once (a `no-store` refusal never does: the
 *   stale copy is served again until its time is out).
 * - Anything personal is `private` or `no-store` and never reaches a shared cache.
 */
export const SHARED_CACHE_PROMISE_SECONDS = 5;

/** nginx stores validity in whole seconds (from ngx_time()), so a copy may live this much more. */
export const SHARED_CACHE_CLOCK_SLACK_SECONDS = 1;

/** Fresh in a shared cache: every answer the origin makes the moment it is asked. */
export const SHARED_FRESH_SECONDS = 1;
/** Served stale while one request revalidates (never waiting for the origin when it is busy). */
export const SHARED_STALE_SECONDS = 3;

/**
 * VERSIONED ADDRESSES: an address naming one version of a picture for good (an image at
 * `/media/<image id>/<width>.webp`, whose bytes never change under it; preview cards and
 * posters named by the version of what they show). Browsers may keep one a year (`immutable`:
 * not even a reload asks again); a shared cache at most the promise; and the server stops
 * serving a version that is not current or whose item is not in public view (404), checking on
 * every request, revalidations included (sendVersioned answers those 304 only after the check).
 */
export const VERSIONED_ADDRESS_CACHE_CONTROL =
  `public, max-age=31536000, immutable, ` +
  `s-maxage=${SHARED_FRESH_SECONDS}, stale-while-revalidate=${SHARED_STALE_SECONDS}`;

/**
 * Public data read fresh from the database on every request (the share JSON): browsers ask
 * again each time (`max-age=0`), shared caches keep it as the rule allows.
 */
export const PUBLIC_DATA_CACHE_CONTROL = `public, max-age=0, s-maxage=${SHARED_FRESH_SECONDS}, stale-while-revalidate=${SHARED_STALE_SECONDS}`;

/** Its refusals (private, removed, not found): as brief, no stale period, replacing the copy. */
export const PUBLIC_REFUSAL_CACHE_CONTROL = `public, max-age=0, s-maxage=${SHARED_FRESH_SECONDS}`;

/** Whether an If-None-Match header names `etag` (weak comparison, as for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === bare);
}

/**
 * Sets the headers of a versioned address the server still serves (call it only after checking
 * that the version is current and its item public), and answers 304 when the client or cache
 * already holds this version. Returns true when it answered; otherwise the caller sends the body.
 */
export function sendVersioned(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('cache-control', VERSIONED_ADDRESS_CACHE_CONTROL).header('etag', etag);
  if (!matches(request.headers['if-none-match'], etag)) return false;
  void reply.code(304).send();
  return true;
}
