import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * What the link domain and the handoffs tell the operators' counts (the share funnel): a
 * Universal Link that reached the web (the app was not installed), a code minted, a code claimed
 * (once per install). Counted by the funnel's own code; nothing about the visitor goes with it.
 */
export type AppLinkEvent = 'link_fallback' | 'handoff_minted' | 'handoff_claimed';

/** The item an event is about, and the User-Agent that tells its channel (never kept). */
export interface AppLinkEventItem {
  id: string;
  userAgent: string | undefined;
}

/** `item` is undefined when the event names no item (the link domain's root). */
export type CountAppLinkEvent = (
  event: AppLinkEvent,
  kind: ShareKind | null,
  item?: AppLinkEventItem,
) => void;
