import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { AppLinksConfig } from '../config/app-links-config.ts';
import type { Db } from '../db/database.ts';
import type { MakeBudget } from '../plugins/shared-budget.ts';
import type { FunnelVisitors } from '../funnel/funnel-visitors.ts';
import type { CountAppLinkEvent } from './app-link-events.ts';
import { handoffRoutes } from './handoff-routes.ts';
import { registerLinkDomain } from './link-domain.ts';

export interface AppLinksPluginOptions {
  db: Db;
  appLinks: AppLinksConfig;
  /** The site's origin, where links the app did not open are sent. */
  publicOrigin: string;
  /** Where link fallbacks and handoffs are counted: the share funnel. */
  funnel: FunnelVisitors;
  /** Replaces the counting (tests watch the events). */
  countEvent?: CountAppLinkEvent;
  /** The claims' budget of misses, shared by the servers (plugins/rate-limits.ts). */
  budget: MakeBudget;
}

/**
 * The app's link domain and the handoff codes (docs/decisions/0017-app-links-and-handoffs.md).
 * The link domain takes its requests in a hook before any route of the site sees them; link
 * fallbacks and handoffs are steps of the share funnel, counted with the pages' own events.
 */
export async function registerAppLinks(
  app: FastifyInstance,
  { db, appLinks, publicOrigin, funnel, countEvent, budget }: AppLinksPluginOptions,
): Promise<void> {
  const count: CountAppLinkEvent =
    countEvent ??
    ((event, kind, { id, request }) => funnel.countVisitorEvents(request, [{ event, kind, id }]));
  registerLinkDomain(app, { appLinks, publicOrigin, countEvent: count });
  await app.register(handoffRoutes, {
    prefix: API_BASE_PATH,
    db,
    appLinks,
    countEvent: count,
    budget,
  });
}
