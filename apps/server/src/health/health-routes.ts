import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@guquan/contract/health';

export const healthRoutes: FastifyPluginCallbackZod<{ version: string }> = (
  app,
  { version },
  done,
) => {
  const startedAt = Date.now();
  app.get('/health', { schema: { response: { 200: healthResponseSchema } } }, (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const, version, uptimeSeconds: (Date.now() - startedAt) / 1000 };
  });
  done();
};
