import type { FastifyRequest } from 'fastify';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { sharePageKind } from '@guquan/contract/share-paths';

/**
 * The `route` label of a request's metrics: its route pattern (`/anime_merch_web/api/v1/goods/:id`),
 * never its URL, so the label has a bounded set of values. The pages' one catch-all route is told
 * apart by the site's own page paths (the share pages, the pages built ahead); any other path
 * under it stays the pattern.
 */
const PAGE_CATCH_ALL = `${BASE_PATH}/*`;

export function requestRouteLabel(
  staticPagePaths: readonly string[],
): (request: FastifyRequest) => string {
  const pages = new Set(staticPagePaths);
  return (request) => {
    const pattern = request.routeOptions.url;
    if (pattern === undefined) return 'unmatched';
    if (pattern !== PAGE_CATCH_ALL) return pattern;
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    return pages.has(path) || sharePageKind(path) !== undefined ? path : pattern;
  };
}
