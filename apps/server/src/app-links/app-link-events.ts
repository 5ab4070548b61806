import type { FastifyRequest } from 'fastify';
import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * What the link domain and the handoffs tell the operators' counts (the share funnel): a
 * Universal Link that reached the web (the app was not installed), a code minted, a code claimed
 * (once per install). Counted by the funnel's own code; nothing about the visitor goes with it.
 */
export type AppLinkEvent = 'link_fallback' | 'handoff_minted' | 'handoff_claimed';

/** The item an event is about, and the request that made it (its User-Agent tells the channel, its address the budget; neither is kept). */
export interface AppLinkEventItem {
  /** A well-formed public id: checked where it came in. */
  id: string;
  request: FastifyRequest;
}

/** Resolves once counted (in memory) or not counted; never fails. */
export type CountAppLinkEvent = (
  event: AppLinkEvent,
  kind: ShareKind,
  item: AppLinkEventItem,
) => Promise<void>;
