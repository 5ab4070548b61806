import type { RouteObject } from 'react-router';
import { routeTable, type RouteEntry } from '../config/route-table';
import { loadLegalDocument } from '../features/legal/load-legal-document';
import type { RouteHandle } from '../lib/routing/document-title';
import { loadRouteModule } from './route-modules';
import { RootErrorBoundary } from './root-error-boundary';
import { RootLayout } from './root-layout';

const ROOT_ROUTE_ID = 'root';

/** The router's routes, made from the route table. Fresh objects each call: lazy() mutates them. */
export function createRoutes(): RouteObject[] {
  return [
    {
      id: ROOT_ROUTE_ID,
      path: '/',
      Component: RootLayout,
      ErrorBoundary: RootErrorBoundary,
      children: (routeTable as readonly RouteEntry[]).map((entry) => {
        const handle: RouteHandle = entry.titles ? { titles: entry.titles } : {};
        const { legal } = entry;
        return {
          id: entry.id,
          path: entry.path === '*' ? '*' : entry.path.slice(1),
          handle,
          lazy: () => loadRouteModule(entry.module),
          ...(legal ? { loader: () => loadLegalDocument(legal) } : {}),
        };
      }),
    },
  ];
}
