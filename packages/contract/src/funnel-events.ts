import { API_BASE_PATH } from './site-paths.ts';
import type { ShareKind } from './share-paths.ts';

/**
 * The share funnel's names and limits: plain code without zod, so a share page can report an
 * event without shipping the schemas (those are in funnel.ts, checked on the server).
 * What is counted, and why that is not tracking: docs/decisions/0018-share-funnel-and-operators-listener.md
 */

/** Every event counted, in funnel order; the operators' page and `/api/funnel` use these names. */
export const FUNNEL_EVENTS = [
  'viewed',
  'open_tapped',
  'store_fallback',
  'guide_shown',
  'link_copied',
  'poster_opened',
  'link_fallback',
  'handoff_minted',
  'handoff_claimed',
] as const;
export type FunnelEvent = (typeof FUNNEL_EVENTS)[number];

/** What a share page reports itself; the server counts the rest (link fallbacks, handoffs). */
export const PAGE_EVENTS = [
  'viewed',
  'open_tapped',
  'store_fallback',
  'guide_shown',
  'link_copied',
  'poster_opened',
] as const satisfies readonly FunnelEvent[];
export type PageEvent = (typeof PAGE_EVENTS)[number];

/** The steps the operators' page draws as the funnel, top to bottom. */
export const FUNNEL_STEPS = [
  'viewed',
  'open_tapped',
  'store_fallback',
  'handoff_minted',
  'handoff_claimed',
] as const satisfies readonly FunnelEvent[];

/**
 * Where a visitor came from, as the browser table (apps/web/src/lib/client/client-info.ts) tells
 * it from the User-Agent: the big messengers, other apps' web views, Safari, Chrome, the rest.
 */
export const SHARE_CHANNELS = [
  'wechat',
  'qq',
  'weibo',
  'other_in_app',
  'safari',
  'chrome',
  'other',
] as const;
export type ShareChannel = (typeof SHARE_CHANNELS)[number];

/** Share pages post their events here (navigator.sendBeacon, text/plain JSON). */
export const EVENTS_PATH = `${API_BASE_PATH}/events`;
/** At most this many events in one beacon, and this many bytes. */
export const MAX_BEACON_EVENTS = 10;
export const MAX_BEACON_BYTES = 4096;

/** One event as a page reports it: the kind and public id of the item it is about. */
export interface PageEventReport {
  event: PageEvent;
  kind: ShareKind;
  id: string;
}

/** A day of the funnel, `YYYY-MM-DD` in China Standard Time (UTC+8, no daylight saving). */
export const FUNNEL_DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** The funnel's days are China's: UTC+8 all year. */
export const FUNNEL_UTC_OFFSET_HOURS = 8;
/** Days kept; older ones are removed by the periodic work. */
export const FUNNEL_RETENTION_DAYS = 400;
