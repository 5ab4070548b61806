import type { FastifyInstance } from 'fastify';
import { outboxBacklog } from '../outbox/outbox-repository.ts';
import { waitingImageCount } from '../media/waiting-images.ts';
import { pingDatabase, type Db } from '../db/database.ts';
import type { RateLimitState } from '../plugins/rate-limits.ts';
import { instrumentRequests, type Metrics } from './metrics.ts';
import { attachOperations } from './operations.ts';
import { createReadiness } from './readiness.ts';
import { requestRouteLabel } from './route-label.ts';

export interface OperationsPluginOptions {
  db: Db;
  /** Undefined when the operators' listener is off (OPS_PORT): then nothing is measured. */
  metrics: Metrics | undefined;
  rateLimits: RateLimitState;
  /** The pages built ahead, whose paths name their own request metrics. */
  staticPagePaths: readonly string[];
  /** The site's public origin: the operators' page links items to their share pages there. */
  publicOrigin: string;
}

/**
 * The operators' side (docs/decisions/0018-share-funnel-and-operators-listener.md): every
 * request timed, the gauges read at scrape time, and the operators' listener (metrics, readiness,
 * the funnel's page) that server.ts makes listen on OPS_HOST:OPS_PORT.
 */
export async function registerOperations(
  app: FastifyInstance,
  { db, metrics, rateLimits, staticPagePaths, publicOrigin }: OperationsPluginOptions,
): Promise<void> {
  if (!metrics) return;
  instrumentRequests(app, metrics, requestRouteLabel(staticPagePaths));
  metrics.watch({
    redisUp: rateLimits.redisUp,
    outbox: () => outboxBacklog(db, new Date()),
    waitingImages: () => waitingImageCount(db),
  });
  const readiness = createReadiness({
    database: () => pingDatabase(db),
    redisUp: rateLimits.redisUp,
  });
  await attachOperations(app, {
    metrics,
    readiness,
    db,
    publicOrigin,
    logger: app.log.child({ listener: 'operators' }),
  });
}
