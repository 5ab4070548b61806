import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Language } from '@guquan/contract/language';
import { encodedBody, type CachedPage, type PageEncoding } from './rendered-page-cache.ts';

/** Brotli when the client takes it, else gzip, else none (a `q=0` refuses an encoding). */
export function preferredEncoding(acceptEncoding: string | undefined): PageEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.slice(0, 256).toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(param));
    if (!refused) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/** Whether the client's copy (If-None-Match) is this page; weak comparison, as for GET. */
export function clientHasPage(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch
    .slice(0, 2048)
    .split(',')
    .some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

export interface PageHeaders {
  cacheControl: string;
  language: Language;
  /** Request headers the page's content depends on, for caches (beyond Accept-Encoding). */
  vary?: string;
}

/**
 * Sends a finished page: 304 when the client already has it, else the page compressed once for
 * everyone (a hot page costs no rendering and no compression per request).
 */
export async function sendFinishedPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: CachedPage,
  headers: PageHeaders,
): Promise<FastifyReply> {
  const successful = page.status >= 200 && page.status < 300;
  // Preconditions apply to successful answers only (RFC 9110, 13.2.1): an error page is sent whole.
  if (successful) reply.header('etag', page.etag);
  reply
    .header('cache-control', headers.cacheControl)
    .header('content-language', headers.language)
    .header('vary', headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding')
    .header('content-security-policy', page.csp);
  // Crawlers that skip the HTML (or read only headers) see the page's robots directive too.
  if (page.robots) reply.header('x-robots-tag', page.robots);
  if (successful && clientHasPage(request.headers['if-none-match'], page.etag))
    return reply.code(304).send();
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  const body = await encodedBody(page, encoding);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.code(page.status).type('text/html; charset=utf-8').send(body);
}
