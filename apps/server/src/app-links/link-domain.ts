import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  APP_MISSING_PARAM,
  APP_MISSING_VALUE,
  IMAGE_PARAM,
  kindOfAppSegment,
  opensAtImage,
  parseImageIndex,
} from '@guquan/contract/app-link-paths';
import { parseAcceptLanguage, pickLanguage, type Language } from '@guquan/contract/language';
import type { ShareKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import type { AppLinksConfig } from '../config/app-links-config.ts';
import { sendApiError } from '../http/api-error.ts';
import { sharePagePath } from '@guquan/contract/share-paths';
import type { CountAppLinkEvent } from './app-link-events.ts';
import { appleAppSiteAssociation, assetLinks } from './association-files.ts';

/**
 * The app's link domain (docs/decisions/0017-app-links-and-handoffs.md), served by the same servers as the site: a request whose
 * Host is LINK_ORIGIN's host and port belongs to it, whichever listener it reached. It serves the
 * two association files, sends a link the app did not open to the same item's share page on the
 * site (the app is missing: "Get the app" first), and nothing else. The site's own host serves no
 * association file: a link to the site must never open the app.
 */

export const AASA_PATH = '/.well-known/apple-app-site-association';
export const ASSET_LINKS_PATH = '/.well-known/assetlinks.json';

/** Phones and Apple's CDN may keep the files an hour; a change of settings shows after that. */
const ASSOCIATION_CACHE_CONTROL = 'public, max-age=3600';
/** A fallback depends on Accept-Language (the page's language): never kept by a shared cache. */
const FALLBACK_CACHE_CONTROL = 'private, no-cache';
const NOINDEX = 'noindex, nofollow';

/** `host[:port]` of a Host header, lower case, without the scheme's default port. */
function normalisedHost(header: string | undefined, protocol: string): string | undefined {
  if (!header || header.length > 300) return undefined;
  const host = header.trim().toLowerCase();
  const defaultPort = protocol === 'https:' ? ':443' : ':80';
  return host.endsWith(defaultPort) ? host.slice(0, -defaultPort.length) : host;
}

/** Whether a request is for the link domain (its Host is LINK_ORIGIN's). */
export function isLinkDomainRequest(
  hostHeader: string | undefined,
  appLinks: Pick<AppLinksConfig, 'origin' | 'host'>,
): boolean {
  return normalisedHost(hostHeader, new URL(appLinks.origin).protocol) === appLinks.host;
}

function languageOf(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  return pickLanguage(
    undefined,
    parseAcceptLanguage(typeof header === 'string' ? header.slice(0, 512) : undefined),
  );
}

/** A path segment as the app wrote it, or as it came when it cannot be decoded (a 400 state). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Where a link the app did not open goes: the item's share page on the site, at its cacheable
 * address (`?id=…&lang=…`, the language from the visitor's), saying the app is missing, with the
 * image kept; `/` goes to the website's download section. Undefined for any other path.
 */
export function fallbackLocation(
  url: string,
  publicOrigin: string,
  language: Language,
): { location: string; kind: ShareKind | null; id?: string } | undefined {
  const parsed = new URL(url, 'http://link.internal');
  if (parsed.pathname === '/')
    return {
      location: `${publicOrigin}${BASE_PATH}/website?lang=${language}#download`,
      kind: null,
    };
  const match = /^\/([^/]+)\/([^/]*)$/.exec(parsed.pathname);
  const kind = match ? kindOfAppSegment(match[1] ?? '') : undefined;
  if (!match || !kind) return undefined;
  const id = decodedSegment(match[2] ?? '');
  const query = new URLSearchParams({ id, lang: language });
  query.set(APP_MISSING_PARAM, APP_MISSING_VALUE);
  const image = opensAtImage(kind)
    ? parseImageIndex(parsed.searchParams.get(IMAGE_PARAM))
    : undefined;
  if (image !== undefined) query.set(IMAGE_PARAM, String(image));
  return {
    location: `${publicOrigin}${BASE_PATH}${sharePagePath(kind)}?${query.toString()}`,
    kind,
    id,
  };
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">' +
  `<meta name="robots" content="${NOINDEX}"><title>404</title></head>` +
  '<body><p>页面不存在 · Not found</p></body></html>';

export interface LinkDomainOptions {
  appLinks: AppLinksConfig;
  /** The site's origin, where links the app did not open are sent. */
  publicOrigin: string;
  countEvent: CountAppLinkEvent;
}

/**
 * Takes every request for the link domain before any route of the site sees it. Registered right
 * after the security headers, so its answers carry them too.
 */
export function registerLinkDomain(
  app: FastifyInstance,
  { appLinks, publicOrigin, countEvent }: LinkDomainOptions,
): void {
  // Built once: the settings do not change while the server runs.
  const aasa = JSON.stringify(appleAppSiteAssociation(appLinks));
  const statements = JSON.stringify(assetLinks(appLinks));

  const sendFile = (reply: FastifyReply, body: string) =>
    reply
      .code(200)
      .header('cache-control', ASSOCIATION_CACHE_CONTROL)
      .type('application/json')
      .send(body);

  app.addHook('onRequest', async (request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '';
    if (!isLinkDomainRequest(request.headers.host, appLinks)) {
      // The site's own host has no association file, and no redirect towards one (a path outside
      // the base path is otherwise sent into it): a link to the site must never open the app.
      if (pathname.startsWith('/.well-known/'))
        return sendApiError(reply, 404, 'not_found', 'There is nothing at this address.');
      return;
    }
    const reads = request.method === 'GET' || request.method === 'HEAD';
    if (reads && pathname === AASA_PATH) return sendFile(reply, aasa);
    if (reads && pathname === ASSET_LINKS_PATH) return sendFile(reply, statements);
    const fallback = reads
      ? fallbackLocation(request.url, publicOrigin, languageOf(request))
      : undefined;
    reply.header('x-robots-tag', NOINDEX);
    if (fallback) {
      // A link of the app's reached the web: the app is not installed here (or this is a computer).
      countEvent(
        'link_fallback',
        fallback.kind,
        fallback.id === undefined
          ? undefined
          : { id: fallback.id, userAgent: request.headers['user-agent'] },
      );
      return reply
        .code(302)
        .header('cache-control', FALLBACK_CACHE_CONTROL)
        .header('vary', 'Accept-Language')
        .header('location', fallback.location)
        .send();
    }
    return reply
      .code(404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(NOT_FOUND_PAGE);
  });
}
