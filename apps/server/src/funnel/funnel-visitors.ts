import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import type { FunnelEvent } from '@guquan/contract/funnel-events';
import { shareChannel } from '@guquan/contract/share-channel';
import type { ShareKind } from '@guquan/contract/share-paths';
import type { Log } from '../http/logging.ts';
import type { FunnelBudget } from './funnel-budget.ts';
import type { FunnelCounter, FunnelObserver } from './funnel-counter.ts';

/** An event a visitor's request makes: what happened, to which item (its public id, checked). */
export interface VisitorEvent {
  event: FunnelEvent;
  kind: ShareKind;
  id: string;
}

/**
 * How every path counts what a visitor did (a share page's beacon, a link-domain fallback, a
 * handoff minted or claimed: registerFunnel answers it to the others). The User-Agent only picks the
 * channel and tells bots apart; it is never kept.
 */
export interface FunnelVisitors {
  /**
   * Counts a request's events (in memory; written within a second): none from a known bot or
   * crawler, and only as many as the address's budget of the minute leaves. Never fails.
   */
  countVisitorEvents(request: FastifyRequest, events: readonly VisitorEvent[]): Promise<void>;
}

export interface FunnelVisitorsOptions {
  counter: FunnelCounter;
  budget: FunnelBudget;
  observer?: FunnelObserver;
  /** The server's logger (app.log). */
  log?: Log;
}

/** At most this much of a User-Agent is looked at. */
const MAX_USER_AGENT = 1024;

export function funnelVisitors({
  counter,
  budget,
  observer,
  log,
}: FunnelVisitorsOptions): FunnelVisitors {
  return {
    async countVisitorEvents(request, events) {
      const userAgent = request.headers['user-agent']?.slice(0, MAX_USER_AGENT);
      if (userAgent !== undefined && isbot(userAgent)) {
        observer?.dropped('bot', events.length);
        return;
      }
      let allowed: number;
      try {
        allowed = await budget(request, events.length);
      } catch (error) {
        // As the rate limits do while their store is away: counted rather than lost.
        log?.warn({ err: error }, 'the share funnel budget could not be read; counted anyway');
        allowed = events.length;
      }
      const channel = shareChannel(userAgent);
      for (const { event, kind, id } of events.slice(0, allowed))
        counter.count({ event, kind, id, channel });
      if (allowed < events.length) observer?.dropped('over_budget', events.length - allowed);
    },
  };
}
