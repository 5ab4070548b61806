import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { sendApiError } from './api-error.ts';
import { sendUnavailablePage, UNAVAILABLE_ERROR } from './unavailable-page.ts';
import { ASSETS_PATH, API_BASE_PATH, BASE_PATH } from '@guquan/contract/site-paths';

const CLIENT_ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/** How long a client should wait before trying again while the service is away. */
const RETRY_AFTER_SECONDS = 5;

/** Whether a path would be a page's, were it under the base path: neither the API nor assets. */
function isPagePath(url: string): boolean {
  return !url.startsWith(`${API_BASE_PATH}/`) && !url.startsWith(ASSETS_PATH);
}

/**
 * 503 with a Retry-After: the friendly page for a browser reading a page, the error shape for the
 * rest. While the database is away, and while this server shuts down (http/closing.ts).
 */
export function sendServiceUnavailable(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  const readsPage = request.method === 'GET' || request.method === 'HEAD';
  if (readsPage && request.url.startsWith(`${BASE_PATH}/`) && isPagePath(request.url)) {
    return sendUnavailablePage(reply);
  }
  return sendApiError(reply, 503, UNAVAILABLE_ERROR.code, UNAVAILABLE_ERROR.message);
}

/**
 * Every error leaves in the one shape `{ error: { code, message } }`; nothing internal (stack,
 * SQL, file paths) is ever sent. Unknown paths get the not-found page when a browser asks for a
 * page under the base path, and a JSON 404 under the API and the assets.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const detail = error.validation
        .map((issue) => `${issue.instancePath || '(request)'} ${issue.message}`)
        .join('; ');
      return sendApiError(reply, 400, 'bad_request', `Invalid request: ${detail}`);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendApiError(
        reply,
        status,
        CLIENT_ERROR_CODES[status] ?? 'bad_request',
        error.message || 'The request was not accepted',
      );
    }
    if (isDatabaseUnavailable(error)) {
      // Not a bug: PostgreSQL is stopped or restarting. The pool reconnects by itself once it is
      // back; until then every request says so, and nginx tries another server first.
      request.log.warn({ err: error }, 'the database is unavailable');
      return sendServiceUnavailable(request, reply);
    }
    request.log.error({ err: error }, 'request failed');
    return sendApiError(
      reply,
      500,
      'internal_error',
      'Something went wrong on our side. Please try again.',
    );
  });

  app.setNotFoundHandler((request, reply) => {
    const readsPage = request.method === 'GET' || request.method === 'HEAD';
    // Pages under the base path all have a route (the not-found page among them); a page path
    // outside it is most likely a link that lost its base path, so it is sent there.
    if (readsPage && isPagePath(request.url))
      return reply.redirect(`${BASE_PATH}${request.url}`, 302);
    return sendApiError(reply, 404, 'not_found', 'There is nothing at this address.');
  });

  // An address under the API that no endpoint took (the pages' wildcard would take it otherwise).
  app.all(`${API_BASE_PATH}/*`, { schema: { hide: true } }, (_request, reply) =>
    sendApiError(reply, 404, 'not_found', 'There is no such API endpoint.'),
  );
}
