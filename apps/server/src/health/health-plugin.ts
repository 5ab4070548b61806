import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { healthRoutes, type HealthRoutesOptions } from './health-routes.ts';

/** The public health check (the operators' readiness is operations/). */
export async function registerHealth(
  app: FastifyInstance,
  options: HealthRoutesOptions = {},
): Promise<void> {
  await app.register(healthRoutes, { prefix: API_BASE_PATH, ...options });
}
