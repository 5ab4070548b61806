import type { FastifyInstance } from 'fastify';
import { pageRoutes, type PageRoutesOptions } from './page-routes.ts';

/**
 * Every page's HTML, rendered on the server (docs/decisions/0001-render-every-page-on-the-server.md):
 * registered last, as its wildcard takes what no other route took.
 */
export async function registerPages(
  app: FastifyInstance,
  options: PageRoutesOptions,
): Promise<void> {
  await app.register(pageRoutes, options);
}
