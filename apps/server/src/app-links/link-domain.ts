import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  APP_MISSING_PARAM,
  APP_MISSING_VALUE,
  APP_PLACE_SEGMENTS,
  FROM_PARAM,
  IMAGE_PARAM,
  kindOfAppSegment,
  opensAtImage,
  parseImageIndex,
} from '@guquan/contract/app-link-paths';
import type { Language } from '@guquan/contract/language';
import {
  parseShareId,
  sharePagePath,
  type PublicId,
  type ShareKind,
} from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import type { AppLinksConfig } from '../config/app-links-config.ts';
import { defaultPort, originHost, type RequestHost } from '../config/host-names.ts';
import { sendApiError } from '../http/api-error.ts';
import { acceptedLanguage, requestLanguage } from '../http/request-language.ts';
import { requestHost } from '../http/request-target.ts';
import type { CountAppLinkEvent } from './app-link-events.ts';
import { appleAppSiteAssociation, assetLinks } from './association-files.ts';
import { allowingStyle, linkDomainNotFoundPage } from './link-domain-not-found.ts';

/**
 * The app's link domain (docs/decisions/0017-app-links-and-handoffs.md), served by the same servers as the site: a request for
 * LINK_ORIGIN's host name belongs to it (linkDomainMatcher), whichever listener it reached. It serves the
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

/**
 * Which requests are the link domain's, given their host (requestHost: an absolute-form target's
 * over the Host header, read by normalisedHost as nginx reads it). Those whose host name is
 * LINK_ORIGIN's, whatever port they name: nginx chooses the link domain's `server {}` by its
 * server_name alone, and so the site is never served under the link domain's name, directly or
 * through nginx. The port counts only where the site has the same host name (demo mode's
 * `http://127.0.0.1:<PORT + 1>`): there it must be LINK_ORIGIN's, a Host without one meaning
 * LINK_ORIGIN's scheme's default.
 */
export function linkDomainMatcher(
  linkOrigin: string,
  publicOrigin: string,
): (host: RequestHost | undefined) => boolean {
  const link = originHost(linkOrigin);
  const portCounts = link.name === originHost(publicOrigin).name;
  const portWhenNone = defaultPort(new URL(linkOrigin).protocol);
  return (host) =>
    host !== undefined &&
    host.name === link.name &&
    (!portCounts || (host.port || portWhenNone) === link.port);
}

/** How much of a malformed id a fallback's address carries: more than any public id has. */
const MAX_MALFORMED_ID_SHOWN = 128;

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
 * image kept; `/` goes to the website's download section. Undefined for any other path. `item`
 * is what the funnel counts: only an item whose id is a well-formed public id (any other id is
 * still sent on, to the share page's own 400 state, and counted nowhere).
 */
export function fallbackLocation(
  url: string,
  publicOrigin: string,
  language: Language,
): { location: string; item?: { kind: ShareKind; id: PublicId } } | undefined {
  const parsed = new URL(url, 'http://link.internal');
  if (parsed.pathname === '/')
    return { location: `${publicOrigin}${BASE_PATH}/website?lang=${language}#download` };
  if (isPlacePath(parsed.pathname)) {
    // A user or a tag: the page of the item the tap came from, else the download section.
    const from = parsed.searchParams.get(FROM_PARAM) ?? '';
    const back = from.includes('?')
      ? undefined
      : fallbackLocation(`/${from}`, publicOrigin, language);
    return back?.item ? back : fallbackLocation('/', publicOrigin, language);
  }
  const match = /^\/([^/]+)\/([^/]*)$/.exec(parsed.pathname);
  const kind = match ? kindOfAppSegment(match[1] ?? '') : undefined;
  if (!match || !kind) return undefined;
  const id = decodedSegment(match[2] ?? '');
  const publicId = parseShareId(id);
  // A malformed id is sent on cut short (still malformed: longer than any public id), so the
  // address stays small enough for every proxy's header buffer (nginx's is 4 kB).
  const shownId = publicId ?? id.slice(0, MAX_MALFORMED_ID_SHOWN);
  const query = new URLSearchParams({ id: shownId, lang: language });
  query.set(APP_MISSING_PARAM, APP_MISSING_VALUE);
  const image = opensAtImage(kind)
    ? parseImageIndex(parsed.searchParams.get(IMAGE_PARAM))
    : undefined;
  if (image !== undefined) query.set(IMAGE_PARAM, String(image));
  return {
    location: `${publicOrigin}${BASE_PATH}${sharePagePath(kind)}?${query.toString()}`,
    ...(publicId === undefined ? {} : { item: { kind, id: publicId } }),
  };
}

const PLACE_SEGMENTS: readonly string[] = Object.values(APP_PLACE_SEGMENTS);

/** `/user/<id>`, `/tag/<name>`: a place in the app that has no page on the site. */
function isPlacePath(pathname: string): boolean {
  const match = /^\/([^/]+)\/[^/]+$/.exec(pathname);
  return match !== null && PLACE_SEGMENTS.includes(match[1] ?? '');
}

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

  const isLinkDomain = linkDomainMatcher(appLinks.origin, publicOrigin);

  app.addHook('onRequest', async (request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '';
    // The target as sent: an absolute-form target's host is the request's (request-target.ts).
    if (!isLinkDomain(requestHost(request.originalUrl, request.headers.host))) {
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
      ? fallbackLocation(request.url, publicOrigin, acceptedLanguage(request))
      : undefined;
    reply.header('x-robots-tag', NOINDEX);
    if (fallback) {
      // A link of the app's reached the web: the app is not installed here (or this is a computer).
      if (fallback.item)
        await countEvent('link_fallback', fallback.item.kind, { id: fallback.item.id, request });
      return reply
        .code(302)
        .header('cache-control', FALLBACK_CACHE_CONTROL)
        .header('vary', 'Accept-Language')
        .header('location', fallback.location)
        .send();
    }
    // In the visitor's language (`?lang=`, else Accept-Language), with the site's look.
    const notFound = linkDomainNotFoundPage(
      requestLanguage(request).language,
      request.url,
      publicOrigin,
    );
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string')
      reply.header('content-security-policy', allowingStyle(policy, notFound.styleHash));
    return reply
      .code(404)
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Language')
      .type('text/html; charset=utf-8')
      .send(notFound.html);
  });
}
