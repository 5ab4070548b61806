import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionTokenSchema } from '@guquan/contract/session';
import { sendApiError } from '../http/api-error.ts';
import type { AuthUser, Authenticator } from './user-authenticator.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser on authenticated routes. */
    user?: AuthUser;
  }
}

const BEARER = /^Bearer ([^\s]+)$/;

/** The bearer token of the request, if it has a well-formed one (a compact JWS). */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  const parsed = sessionTokenSchema.safeParse(match?.[1]);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The one auth hook of every in-app endpoint, always as `onRequest: requireUser(auth)` (the
 * linter refuses preHandler in a routes file): it runs before the body is parsed or validated, so
 * a stranger gets a 401 and learns nothing from validation errors. The token (the platform's
 * JWT) comes only from the Authorization header (never a URL or cookie); whatever
 * user-authenticator.ts refuses is a 401.
 */
export function requireUser(auth: Authenticator) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const user = token ? await auth.authenticate(token) : undefined;
    if (!user) {
      return sendApiError(reply, 401, 'unauthorized', 'Log in again in the app to continue.');
    }
    request.user = user;
    return undefined;
  };
}

/** The authenticated user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new Error('currentUser on a route without requireUser');
  return request.user;
}
