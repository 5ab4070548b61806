import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { platformRoutes, type PlatformRoutesOptions } from './platform-routes.ts';

export type PlatformPluginOptions = PlatformRoutesOptions;

/**
 * The platform's doors for its data (PRODUCT.md, "The app's platform"): its signed events in,
 * written into the site's copy (docs/decisions/0021-platform-events-in.md).
 */
export async function registerPlatform(
  app: FastifyInstance,
  options: PlatformPluginOptions,
): Promise<void> {
  await app.register(platformRoutes, { prefix: API_BASE_PATH, ...options });
}
