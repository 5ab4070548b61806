import { matchRoutes, type RouteObject } from 'react-router';
import { BASE_PATH } from '@guquan/contract/site-paths';

/**
 * Loads the lazy modules of the routes matching `location` and merges them into the routes, so
 * the browser router starts with the page the server rendered and hydrates it in place. Without
 * this React keeps the server HTML and appends a second copy of the page once the router is ready.
 */
export async function resolveLazyMatches(
  routes: RouteObject[],
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
): Promise<void> {
  const matches = matchRoutes(routes, location, BASE_PATH) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, resolved);
      route.lazy = undefined;
    }),
  );
}
