import type { RouteEntry } from './route-table';

/**
 * Pages that change only with a deployment: the official website and every legal document and
 * version. Their markup depends on the language and the visitor's device only, never on the query
 * or on stored data, so the build renders them ahead (apps/server/src/pages/prerender-cli.ts).
 */
export function isStaticRoute(entry: Pick<RouteEntry, 'id' | 'legal'>): boolean {
  return entry.legal !== undefined || entry.id === 'website';
}
