import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { Authenticator } from '../auth/user-authenticator.ts';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { Db } from '../db/database.ts';
import { schedulePeriodicWork } from '../plugins/periodic-work.ts';
import { designRepository, type DesignRepository } from './design-repository.ts';
import { designRoutes } from './design-routes.ts';
import { pointsDebitsClient } from './points-debits.ts';
import { REDEMPTION_WORKER_INTERVAL_MS, redemptionService } from './redemption-service.ts';

/**
 * Design drawings and their redemption with points: the API, and the worker that asks the
 * platform again about redemptions it has not answered; answers the repository.
 */
export async function registerDesigns(
  app: FastifyInstance,
  {
    db,
    auth,
    platform,
    answerWithinMs,
  }: {
    db: Db;
    auth: Authenticator;
    platform: PlatformConfig;
    /** How long a redemption's request waits for the platform: 1.5 s unless a test says. */
    answerWithinMs?: number;
  },
): Promise<DesignRepository> {
  const requestDebit = pointsDebitsClient(platform, { log: app.log });
  const designs = designRepository(db);
  const redemptions = redemptionService(db, { requestDebit, log: app.log, answerWithinMs });
  // A debit still going on after its request was answered writes its answer before the
  // database closes (at most the debit's timeout; else its lease runs out and any server asks).
  app.addHook('onClose', () => redemptions.drain());
  // Every server runs it; the leases make one at a time ask about each redemption.
  schedulePeriodicWork(app, {
    name: 'the redemption retry worker',
    intervalMs: REDEMPTION_WORKER_INTERVAL_MS,
    firstRunDelayMs: REDEMPTION_WORKER_INTERVAL_MS,
    run: () => redemptions.retryDue(),
  });
  await app.register(designRoutes, { prefix: API_BASE_PATH, designs, redemptions, auth });
  return designs;
}
