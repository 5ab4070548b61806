import { isbot } from 'isbot';
import type { ShareChannel } from '@guquan/contract/funnel-events';
import { shareChannel } from '@guquan/contract/share-channel';
import type { FunnelCount, FunnelCounter } from './funnel-counter.ts';

/**
 * What the rest of the server uses to count the funnel events it sees itself (a link-domain
 * fallback, a handoff minted or claimed: app.ts hands these to those routes). The User-Agent only
 * picks the channel and tells bots apart; it is never kept.
 */
export interface FunnelVisitors {
  /** The channel of a visitor's User-Agent, or null for a known bot or crawler (not counted). */
  channelOfVisitor(userAgent: string | undefined): ShareChannel | null;
  /** Counts one event (in memory; written within a second). */
  countFunnelEvent(event: FunnelCount): void;
}

/** At most this much of a User-Agent is looked at. */
const MAX_USER_AGENT = 1024;

export function funnelVisitors(counter: FunnelCounter): FunnelVisitors {
  return {
    channelOfVisitor(userAgent) {
      const bounded = userAgent?.slice(0, MAX_USER_AGENT);
      return bounded !== undefined && isbot(bounded) ? null : shareChannel(bounded);
    },
    countFunnelEvent: (event) => {
      counter.count(event);
    },
  };
}
