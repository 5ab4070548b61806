import type { IncomingMessage } from 'node:http';

/** `http://host[:port]` or `https://…` at the start of an absolute-form request target. */
const ABSOLUTE_FORM_ORIGIN = /^https?:\/\/[^/?#]*/i;

/**
 * The origin form (`/path?query`) of a request target. HTTP/1.1 lets a client send the
 * absolute form (`GET http://host/anime_merch_web/website HTTP/1.1`, RFC 9112 3.2.2), which a
 * server must accept; nginx turns it into the origin form, but a client that reaches a server
 * directly keeps it in `request.url`. Fastify's router matched such a URL while every handler
 * saw the absolute one (a page then failed to render: 500). The host in it is ignored, as the
 * Host header is: every address the site makes comes from PUBLIC_ORIGIN. Other targets (the
 * asterisk form, garbage) are left for the router, which answers them as unknown paths.
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
