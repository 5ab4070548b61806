import type { Language } from '@guquan/contract/language';
import type { PageHead } from '@guquan/contract/page-render';
import { languageAlternates, languagePagePath } from '@guquan/contract/search-pages';
import { versionsOf } from './legal-versions';
import { fullPath, routeTable, type RouteEntry } from './route-table';

/**
 * How search engines treat each route (docs/decisions/0011-search-engines.md). The website and the
 * current version of each legal document are indexed, at one address per language; a legal
 * document's older version is kept out of the index (its page links to the current one); a share
 * page decides by what it shows (share-head.ts); everything else, in-app pages first, is
 * `noindex`, so a new route is kept out unless it says otherwise.
 */

/** The path (without the language) at which search engines index a route's page, if they do. */
function indexedPathOf(entry: RouteEntry): string | undefined {
  if (entry.kind === 'website') return fullPath(entry);
  if (entry.kind !== 'legal' || !entry.legal) return undefined;
  const current = versionsOf(entry.legal.document)[0];
  // A version shown at two routes is indexed at the first (the other names it canonical).
  return current?.version === entry.legal.version ? fullPath(current) : undefined;
}

/** What a route's page adds to <head> for search engines, whatever its module adds. */
export function searchHeadOf(entry: RouteEntry, language: Language): PageHead {
  if (entry.kind === 'share') return {};
  const path = indexedPathOf(entry);
  if (path === undefined) return { noindex: true };
  return { canonicalPath: languagePagePath(path, language), alternates: languageAlternates(path) };
}

/** The pages a sitemap lists: each indexed page once, by its path without the language. */
export function indexedPagePaths(): string[] {
  const paths = (routeTable as readonly RouteEntry[]).flatMap((entry) => {
    const path = indexedPathOf(entry);
    return path === undefined ? [] : [path];
  });
  return [...new Set(paths)];
}
