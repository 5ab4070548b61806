import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { CURRENT_SESSION_PATH } from '@guquan/contract/session';
import { apiRoute } from '../http/api-paths.ts';
import { bearerToken, requireUser } from './authenticate.ts';
import type { SessionRepository } from './session-repository.ts';

/** Ends the session the request carries (the app logs out). */
export const sessionRoutes: FastifyPluginCallbackZod<{ sessions: SessionRepository }> = (
  app,
  { sessions },
  done,
) => {
  app.delete(
    apiRoute(CURRENT_SESSION_PATH),
    {
      onRequest: requireUser(sessions),
      schema: { response: { 204: z.null(), 401: apiErrorSchema } },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      if (token) await sessions.revoke(token);
      return reply.code(204).header('cache-control', 'no-store').send(null);
    },
  );
  done();
};
