import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { HEALTH_PATH, healthResponseSchema } from '@guquan/contract/health';
import { apiRoute } from '../http/api-paths.ts';

/**
 * The public health check (load balancers, nginx, `npm run cluster`): 200 while the server
 * serves. It tells nothing else: the version and uptime would tell an attacker which flaws to
 * try and when a restart happened; operators read them from the start-up log and the process.
 */
export const healthRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  app.get(
    apiRoute(HEALTH_PATH),
    { schema: { response: { 200: healthResponseSchema } } },
    (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );
  done();
};
