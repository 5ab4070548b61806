import type { IncomingMessage } from 'node:http';
import { normalisedHost, type RequestHost } from '../config/host-names.ts';

/**
 * `scheme://authority` at the start of an absolute-form request target, its authority
 * (`user@host:port`) captured. Whatever the scheme, as nginx reads it (`ftp://host/path` is
 * `/path` on host there too).
 */
const ABSOLUTE_FORM_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/**
 * The origin form (`/path?query`) of a request target. HTTP/1.1 lets a client send the
 * absolute form (`GET http://host/anime_merch_web/website HTTP/1.1`, RFC 9112 3.2.2), which a
 * server must accept; nginx turns it into the origin form, but a client that reaches a server
 * directly keeps it in `request.url`. Fastify's router matched such a URL while every handler
 * saw the absolute one (a page then failed to render: 500). The host in it names the request's
 * host (requestHost below); every address the site makes comes from PUBLIC_ORIGIN. Other targets
 * (the asterisk form, garbage) are left for the router, which answers them as unknown paths.
 */
export function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  const origin = ABSOLUTE_FORM_ORIGIN.exec(url);
  if (!origin) return url;
  const rest = url.slice(origin[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Fastify's `rewriteUrl`: every request is routed and handled by its origin form. */
export function rewriteToOriginForm(request: IncomingMessage): string {
  return originForm(request.url ?? '/');
}

/**
 * The host a request is for. An absolute-form target's host wins over the Host header (RFC 9112
 * 3.2.2: the server must ignore the Host header then), as it does in nginx, which chooses its
 * `server {}` by it; `target` is the target as sent (Fastify's `request.originalUrl`, before
 * rewriteToOriginForm). Undefined when the request names no host.
 */
export function requestHost(
  target: string,
  hostHeader: string | undefined,
): RequestHost | undefined {
  const authority = ABSOLUTE_FORM_ORIGIN.exec(target)?.[1];
  if (authority !== undefined)
    return normalisedHost(authority.slice(authority.lastIndexOf('@') + 1));
  return hostHeader === undefined ? undefined : normalisedHost(hostHeader);
}
