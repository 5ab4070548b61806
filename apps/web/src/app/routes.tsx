import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import type { ShareKind } from '@guquan/contract/share-paths';
import { routeTable, type RouteEntry } from '../config/route-table';
import type { RouteHandle } from '../lib/routing/document-title';
import { loadRouteModule } from './route-modules';
import { RootErrorBoundary } from './root-error-boundary';
import { RootLayout } from './root-layout';

const ROOT_ROUTE_ID = 'root';

/**
 * A share route's loader, for the kind the route table gives it. Its code comes from the share
 * pages' route module (the chunk the route loads anyway), not with the shell every page starts
 * with.
 */
function shareRouteLoader(kind: ShareKind) {
  return async (args: LoaderFunctionArgs) => {
    const { loaderOf } = await (await import('./routes/share-pages')).load();
    return loaderOf(kind)(args);
  };
}

/** A legal route's loader: its code comes with the legal page's route module, not the shell. */
function legalRouteLoader(legal: NonNullable<RouteEntry['legal']>) {
  return async () => {
    const { loadDocument } = await import('./routes/legal-document');
    return loadDocument(legal);
  };
}

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
        const { legal, share } = entry;
        return {
          id: entry.id,
          path: entry.path === '*' ? '*' : entry.path.slice(1),
          handle,
          lazy: () => loadRouteModule(entry),
          ...(legal ? { loader: legalRouteLoader(legal) } : {}),
          ...(share ? { loader: shareRouteLoader(share) } : {}),
        };
      }),
    },
  ];
}
