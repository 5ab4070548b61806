import type { FastifyInstance } from 'fastify';
import { FUNNEL_RETENTION_DAYS } from '@guquan/contract/funnel-events';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { Db } from '../db/database.ts';
import { schedulePeriodicWork } from '../plugins/periodic-work.ts';
import { createFunnelCounter, type FunnelObserver } from './funnel-counter.ts';
import { addDays, funnelDayOf } from './funnel-days.ts';
import { removeFunnelDaysBefore } from './funnel-repository.ts';
import { funnelBudget } from './funnel-budget.ts';
import { funnelRoutes } from './funnel-routes.ts';
import { funnelVisitors, type FunnelVisitors } from './funnel-visitors.ts';

/** How often each server removes the days past the retention: hourly. */
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface FunnelPluginOptions {
  db: Db;
  /** Told what is counted, written and dropped (operations/metrics.ts). */
  observer?: FunnelObserver;
}

/**
 * The share funnel (docs/decisions/0018-share-funnel-and-operators-listener.md): the pages'
 * beacons, the counter that adds them up in memory and writes them once a second (started when
 * the server is ready, emptied when it closes), and the removal of days past the retention.
 * Answers how other features count the events they see themselves. Needs the rate limiter
 * registered before it (the budget of counted events per address is kept there).
 */
export async function registerFunnel(
  app: FastifyInstance,
  { db, observer }: FunnelPluginOptions,
): Promise<FunnelVisitors> {
  const counter = createFunnelCounter({ db, observer, log: app.log });
  app.addHook('onReady', () => {
    counter.start();
    return Promise.resolve();
  });
  // After the server stopped taking requests (Fastify closes it first), before the database goes.
  app.addHook('onClose', () => counter.stop());
  // Daily rows older than 400 days go (any server may do it: deleting twice deletes nothing).
  schedulePeriodicWork(app, {
    name: 'removing old share-funnel days',
    intervalMs: RETENTION_INTERVAL_MS,
    run: () => removeFunnelDaysBefore(db, addDays(funnelDayOf(new Date()), -FUNNEL_RETENTION_DAYS)),
  });
  // Every path that counts a visitor's events goes through these: bots aside, one budget an
  // address (kept by the rate limiter, which must be registered before).
  const visitors = funnelVisitors({
    counter,
    budget: funnelBudget(app),
    observer,
    log: app.log,
  });
  await app.register(funnelRoutes, { prefix: API_BASE_PATH, visitors });
  return visitors;
}
