import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  DEMO_SESSIONS_PATH,
  DEMO_USERS_PATH,
  demoLoginRequestSchema,
  demoUsersResponseSchema,
  sessionSchema,
} from '@guquan/contract/session';
import type { SessionRepository } from '../auth/session-repository.ts';
import type { Db } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';

/**
 * The demo log-in that the bridge simulator uses to play the app: pick a demo user, get a session.
 * Registered by demo-mode.ts, which app.ts loads in demo mode only: production has no such paths.
 */
export const demoRoutes: FastifyPluginCallbackZod<{ db: Db; sessions: SessionRepository }> = (
  app,
  { db, sessions },
  done,
) => {
  app.get(
    apiRoute(DEMO_USERS_PATH),
    { schema: { response: { 200: demoUsersResponseSchema } } },
    async (_request, reply) => {
      const users = await db
        .selectFrom('users')
        .select(['public_id as id', 'nickname'])
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute();
      return reply.header('cache-control', 'no-store').send({ users });
    },
  );

  app.post(
    apiRoute(DEMO_SESSIONS_PATH),
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        body: demoLoginRequestSchema,
        response: { 201: sessionSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await db
        .selectFrom('users')
        .select(['id', 'public_id as publicId'])
        .where('public_id', '=', request.body.userId)
        // A deleted account can never log in again.
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!user) return sendApiError(reply, 404, 'not_found', 'There is no such demo user.');
      const session = await sessions.issue(user);
      return reply.code(201).header('cache-control', 'no-store').send(session);
    },
  );
  done();
};
