import type { ComponentType } from 'react';
import type { LoaderFunction, ShouldRevalidateFunction } from 'react-router';
import type { RouteEntry } from '../config/route-table';
import { loadWithRecovery } from '../lib/chunks/page-load-recovery';

/** What a route's page is made of: its component, and how its data and code load. */
export interface RoutePage {
  Component: ComponentType;
  loader?: LoaderFunction;
  /** When the router reloads the route's data (share pages: only for another item). */
  shouldRevalidate?: ShouldRevalidateFunction;
  /**
   * What must be loaded before a route's page renders (share pages: the texts of its language,
   * and the part of the page the server rendered). `serverData`: before hydration, the route's
   * loader data the server sent with its page.
   */
  prepare?: (entry: RouteEntry, serverData: unknown) => Promise<void>;
}

/**
 * What a lazily loaded route module (src/app/routes/<name>.tsx) exports: its page, or, for a page
 * that starts without React (the share pages: docs/decisions/0031-share-pages-start-without-react.md),
 * the load of its page from a chunk of its own.
 */
export type RouteModule = RoutePage | { load: () => Promise<RoutePage> };

// One chunk per route module, fetched only when its route is visited.
const routeModules = import.meta.glob<RouteModule>('./routes/*.tsx');

/** The module's path from the web app's root, as Vite's build manifest names it. */
export function routeModuleSource(name: string): string {
  return `src/app/routes/${name}.tsx`;
}

export function hasRouteModule(name: string): boolean {
  return `./routes/${name}.tsx` in routeModules;
}

async function importRoutePage(name: string): Promise<RoutePage> {
  const load = routeModules[`./routes/${name}.tsx`];
  if (!load) throw new Error(`Unknown route module: ${name}`);
  const module = await loadWithRecovery(load);
  return 'load' in module ? loadWithRecovery(module.load) : module;
}

/**
 * What the router takes from a route's module (lazy() accepts route properties only), once what
 * its page needs is loaded.
 */
export async function loadRouteModule(
  entry: RouteEntry,
): Promise<Pick<RoutePage, 'Component' | 'loader' | 'shouldRevalidate'>> {
  const module = await importRoutePage(entry.module);
  // Before hydration the server's data is there (entry-client.tsx); on the server, in the
  // request's context instead.
  const serverData: unknown =
    typeof window === 'undefined'
      ? undefined
      : window.__staticRouterHydrationData?.loaderData?.[entry.id];
  await module.prepare?.(entry, serverData);
  return {
    Component: module.Component,
    ...(module.loader ? { loader: module.loader } : {}),
    ...(module.shouldRevalidate ? { shouldRevalidate: module.shouldRevalidate } : {}),
  };
}
