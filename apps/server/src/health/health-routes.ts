import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { HEALTH_PATH, healthResponseSchema, healthStartingSchema } from '@guquan/contract/health';
import { apiRoute } from '../http/api-paths.ts';

/**
 * The public health check (load balancers, nginx, `npm run cluster`): 200 while the server
 * serves. It tells nothing else: the version and uptime would tell an attacker which flaws to
 * try and when a restart happened; operators read them from the start-up log and the process.
 */
export interface HealthRoutesOptions {
  /** Demo mode on the stand-in platform: false while the demo data is still coming. */
  ready?: () => Promise<boolean>;
}

export const healthRoutes: FastifyPluginCallbackZod<HealthRoutesOptions> = (
  app,
  { ready },
  done,
) => {
  app.get(
    apiRoute(HEALTH_PATH),
    {
      schema: {
        // 503: a demo server still starting, or any server shutting down (http/closing.ts).
        response: {
          200: healthResponseSchema,
          503: z.union([healthStartingSchema, apiErrorSchema]),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      if (ready && !(await ready())) {
        return reply
          .code(503)
          .header('retry-after', '1')
          .send({ status: 'starting' as const });
      }
      return reply.send({ status: 'ok' as const });
    },
  );
  done();
};
