import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  DEMO_SESSIONS_PATH,
  DEMO_USERS_PATH,
  demoLoginRequestSchema,
  demoUsersResponseSchema,
  sessionSchema,
} from '@guquan/contract/session';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { Db } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import { activeUserId, listDemoUsers } from './demo-users-repository.ts';
import { DEMO_TOKENS_PATH, postToStandIn } from './stand-in-client.ts';

/** The stand-in's answer: the session the simulator gets, but for the user id (added here). */
const signedTokenSchema = sessionSchema.omit({ userId: true });

/**
 * The demo log-in that the bridge simulator uses to play the app: pick a demo user, get the
 * token the stand-in platform signs for them (`POST {PLATFORM_API_URL}/demo/tokens`), as the app
 * gets one from the platform. Registered by demo-mode.ts, which app.ts loads in demo mode only:
 * production has no such paths.
 */
/**
 * Demo log-ins and token refreshes one address may ask for in a minute. The simulated app asks
 * the platform for a refreshed token whenever a page calls getSession (docs/bridge-protocol.md),
 * so every in-app page load is one: a tester, or the browser tests from one address, load far
 * more than 30 pages a minute. Signing a token is cheap; the limit only stops a flood.
 */
export const DEMO_LOG_INS_PER_MINUTE = 600;

export const demoRoutes: FastifyPluginCallbackZod<{ db: Db; platform: PlatformConfig }> = (
  app,
  { db, platform },
  done,
) => {
  app.get(
    apiRoute(DEMO_USERS_PATH),
    { schema: { response: { 200: demoUsersResponseSchema } } },
    async (_request, reply) => {
      const users = await listDemoUsers(db);
      return reply.header('cache-control', 'no-store').send({ users });
    },
  );

  app.post(
    apiRoute(DEMO_SESSIONS_PATH),
    {
      config: { rateLimit: { max: DEMO_LOG_INS_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        body: demoLoginRequestSchema,
        response: { 201: sessionSchema, 404: apiErrorSchema, 502: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { userId, authTime } = request.body;
      // A deleted account can never log in again.
      const publicId = await activeUserId(db, userId);
      if (publicId === undefined)
        return sendApiError(reply, 404, 'not_found', 'There is no such demo user.');
      let answer: unknown;
      try {
        const response = await postToStandIn(platform, DEMO_TOKENS_PATH, {
          userId: publicId,
          authTime,
        });
        answer = response.status === 201 ? await response.json() : undefined;
      } catch (error) {
        request.log.warn({ err: error }, 'the stand-in platform did not sign a demo token');
      }
      const signed = signedTokenSchema.safeParse(answer);
      if (!signed.success) {
        return sendApiError(reply, 502, 'platform_unavailable', 'The platform signed no token.');
      }
      return reply.code(201).header('cache-control', 'no-store').send({
        token: signed.data.token,
        userId: publicId,
        expiresAt: signed.data.expiresAt,
      });
    },
  );
  done();
};
