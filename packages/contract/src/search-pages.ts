import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './language.ts';
import { BASE_PATH } from './site-paths.ts';

/**
 * How search engines find the pages worth finding (docs/decisions/0011-search-engines.md), shared
 * by the pages' heads (canonical, hreflang) and the server's sitemap so the two always agree.
 */

/** At the site's root, where crawlers look for it, although the site lives under the base path. */
export const ROBOTS_PATH = '/robots.txt';
export const SITEMAP_PATH = `${BASE_PATH}/sitemap.xml`;

export type Hreflang = Language | 'x-default';

/** One language version of a page, for `<link rel="alternate" hreflang>` and the sitemap. */
export interface LanguageAlternate {
  hreflang: Hreflang;
  /** Path and query under the site's origin. */
  path: string;
}

/**
 * The canonical address of a page in a language. A page without `?lang=` is in the default
 * language unless the browser's Accept-Language asks for English, which search engines' crawlers
 * do not send: so the default language's address is the bare path, English's `?lang=en`.
 */
export function languagePagePath(path: string, language: Language): string {
  return language === DEFAULT_LANGUAGE ? path : `${path}?lang=${language}`;
}

/**
 * Every language version of a page, and `x-default`: the bare path, which follows the visitor's
 * Accept-Language.
 */
export function languageAlternates(path: string): LanguageAlternate[] {
  return [
    ...LANGUAGES.map((language) => ({
      hreflang: language,
      path: languagePagePath(path, language),
    })),
    { hreflang: 'x-default', path },
  ];
}
