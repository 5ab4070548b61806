import type { FastifyInstance } from 'fastify';
import { languageAlternates, ROBOTS_PATH, SITEMAP_PATH } from '@guquan/contract/search-pages';
import { ASSETS_PATH, BASE_PATH } from '@guquan/contract/site-paths';
import { MEDIA_PATH, SHARE_KINDS, SHARE_PAGE_PATHS } from '@guquan/contract/share-paths';
import { PICTURES_PATH } from '@guquan/contract/share-pictures';
import { escapeHtml } from '../http/html-escape.ts';

/**
 * robots.txt and the sitemap (docs/decisions/0011-search-engines.md). Crawlers may read the
 * website, the legal pages and shared items, and what those pages load; never the in-app pages
 * nor the API. Anything else is refused by the last rule, so a new kind of page stays out until it
 * is allowed here. The Allow lines come first for crawlers that take the first rule that matches;
 * the others take the longest, which gives the same answer.
 */
export const ROBOTS_ALLOWED = [
  `${BASE_PATH}/website`,
  `${BASE_PATH}/agreement/`,
  ...SHARE_KINDS.map((kind) => `${BASE_PATH}${SHARE_PAGE_PATHS[kind]}`),
  SITEMAP_PATH,
  ASSETS_PATH,
  `${MEDIA_PATH}/`,
  // Preview cards: link previewers that honour robots.txt (Twitter's, Facebook's) fetch og:image.
  `${PICTURES_PATH}/`,
] as const;
export const ROBOTS_DISALLOWED = [`${BASE_PATH}/APPPage/`, `${BASE_PATH}/api/`, '/'] as const;

export function robotsTxt(publicOrigin: string): string {
  return [
    '# 谷圈 web: the website, the legal pages and shared items; not the in-app pages nor the API.',
    'User-agent: *',
    ...ROBOTS_ALLOWED.map((path) => `Allow: ${path}`),
    ...ROBOTS_DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${publicOrigin}${SITEMAP_PATH}`,
    '',
  ].join('\n');
}

/**
 * The sitemap: each indexed page once per language, each entry with its language alternates
 * (zh-CN, en, x-default), as search engines ask for them.
 */
export function sitemapXml(publicOrigin: string, indexedPaths: readonly string[]): string {
  const url = (path: string) => escapeHtml(`${publicOrigin}${path}`);
  const entries = indexedPaths.flatMap((path) => {
    const alternates = languageAlternates(path);
    const links = alternates.map(
      (alternate) =>
        `    <xhtml:link rel="alternate" hreflang="${alternate.hreflang}" href="${url(alternate.path)}"/>`,
    );
    return alternates
      .filter((alternate) => alternate.hreflang !== 'x-default')
      .map((alternate) => [
        '  <url>',
        `    <loc>${url(alternate.path)}</loc>`,
        ...links,
        '  </url>',
      ]);
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries.flat(),
    '</urlset>',
    '',
  ].join('\n');
}

/** Both files, made once: they change only with the build and the configuration. */
export function searchFileRoutes(
  app: FastifyInstance,
  { publicOrigin, indexedPaths }: { publicOrigin: string; indexedPaths: readonly string[] },
): void {
  const robots = robotsTxt(publicOrigin);
  const sitemap = sitemapXml(publicOrigin, indexedPaths);
  app.get(ROBOTS_PATH, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send(robots),
  );
  app.get(SITEMAP_PATH, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('application/xml; charset=utf-8').send(sitemap),
  );
}
