import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { HEALTH_PATH, healthResponseSchema } from '@guquan/contract/health';
import { apiRoute } from '../http/api-paths.ts';

export const healthRoutes: FastifyPluginCallbackZod<{ version: string }> = (
  app,
  { version },
  done,
) => {
  const startedAt = Date.now();
  app.get(
    apiRoute(HEALTH_PATH),
    { schema: { response: { 200: healthResponseSchema } } },
    (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const, version, uptimeSeconds: (Date.now() - startedAt) / 1000 };
    },
  );
  done();
};
