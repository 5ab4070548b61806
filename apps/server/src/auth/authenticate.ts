import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionTokenSchema } from '@guquan/contract/session';
import { sendApiError } from '../http/api-error.ts';
import type { SessionRepository, SessionUser } from './session-repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser on authenticated routes. */
    user?: SessionUser;
  }
}

const BEARER = /^Bearer ([^\s]+)$/;

/** The bearer token of the request, if it has a well-formed one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  const parsed = sessionTokenSchema.safeParse(match?.[1]);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The one auth hook of every in-app endpoint, always as `onRequest: requireUser(sessions)` (the
 * linter refuses preHandler in a routes file): it runs before the body is parsed or validated, so
 * a stranger gets a 401 and learns nothing from validation errors. The token comes only from the
 * Authorization header (never a URL or cookie); a missing, malformed, unknown, expired or revoked
 * one is a 401.
 */
export function requireUser(sessions: SessionRepository) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const user = token ? await sessions.authenticate(token) : undefined;
    if (!user) {
      return sendApiError(reply, 401, 'unauthorized', 'Log in again in the app to continue.');
    }
    request.user = user;
    return undefined;
  };
}

/** The authenticated user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new Error('currentUser on a route without requireUser');
  return request.user;
}
