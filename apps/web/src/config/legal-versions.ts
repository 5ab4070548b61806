import { routeTable, type RouteEntry } from './route-table';

export interface LegalVersion {
  version: string;
  /** Route path (relative to the base path) that shows this version. */
  path: string;
}

/** The versions of a document, newest first, each at the first route that shows it. */
export function versionsOf(document: string): LegalVersion[] {
  const versions = new Map<string, string>();
  for (const entry of routeTable as readonly RouteEntry[]) {
    if (entry.legal?.document === document && !versions.has(entry.legal.version)) {
      versions.set(entry.legal.version, entry.path);
    }
  }
  return [...versions]
    .map(([version, path]) => ({ version, path }))
    .sort((a, b) => b.version.localeCompare(a.version));
}
