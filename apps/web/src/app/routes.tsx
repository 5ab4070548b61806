import type { RouteObject } from 'react-router';
import { routeTable } from '../config/route-table';
import type { RouteHandle } from '../lib/routing/document-title';
import { loadRouteModule } from './route-modules';
import { RootErrorBoundary } from './root-error-boundary';
import { RootLayout } from './root-layout';

export const ROOT_ROUTE_ID = 'root';

/** The router's routes, made from the route table. Fresh objects each call: lazy() mutates them. */
export function createRoutes(): RouteObject[] {
  return [
    {
      id: ROOT_ROUTE_ID,
      path: '/',
      Component: RootLayout,
      ErrorBoundary: RootErrorBoundary,
      children: routeTable.map((entry) => {
        const handle: RouteHandle = 'titles' in entry ? { titles: entry.titles } : {};
        return {
          id: entry.id,
          path: entry.path === '*' ? '*' : entry.path.slice(1),
          handle,
          lazy: () => loadRouteModule(entry.module),
        };
      }),
    },
  ];
}
