import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * What the link domain and the handoffs tell the operators' counts (the share funnel): a
 * Universal Link that reached the web (the app was not installed), a code minted, a code claimed
 * (once per install). Counted by the funnel's own code; nothing about the visitor goes with it.
 */
export type AppLinkEvent = 'link_fallback' | 'handoff_minted' | 'handoff_claimed';

export type CountAppLinkEvent = (event: AppLinkEvent, kind: ShareKind | null) => void;

/** Until the share funnel's counter is wired in (app.ts), events are not counted. */
export const UNCOUNTED: CountAppLinkEvent = () => undefined;
