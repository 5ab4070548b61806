import type { ComponentType } from 'react';
import type { LoaderFunction } from 'react-router';
import { loadWithRecovery } from '../lib/chunks/page-load-recovery';

/** What a lazily loaded route module (src/app/routes/<name>.tsx) exports. */
export interface RouteModule {
  Component: ComponentType;
  loader?: LoaderFunction;
}

// One chunk per route module, fetched only when its route is visited.
const routeModules = import.meta.glob<RouteModule>('./routes/*.tsx');

/** The module's path from the web app's root, as Vite's build manifest names it. */
export function routeModuleSource(name: string): string {
  return `src/app/routes/${name}.tsx`;
}

export function hasRouteModule(name: string): boolean {
  return `./routes/${name}.tsx` in routeModules;
}

export async function loadRouteModule(name: string): Promise<RouteModule> {
  const load = routeModules[`./routes/${name}.tsx`];
  if (!load) throw new Error(`Unknown route module: ${name}`);
  const module = await loadWithRecovery(load);
  return { Component: module.Component, ...(module.loader ? { loader: module.loader } : {}) };
}
