import {
  SHARE_CHANNELS,
  type FunnelEvent,
  type ShareChannel,
} from '@guquan/contract/funnel-events';
import type { EventCounts, FunnelQuery, FunnelResponse } from '@guquan/contract/funnel';
import { SHARE_KINDS, type ShareKind } from '@guquan/contract/share-paths';
import type { Db } from '../db/database.ts';
import { addDays, daysFrom, funnelDayOf } from './funnel-days.ts';
import {
  countsByChannel,
  countsByDay,
  countsByKind,
  mostViewedItems,
  publicItemTitles,
  zeroCounts,
  type DayRange,
  type ItemFilter,
} from './funnel-repository.ts';

/** What the operators read: `/api/funnel` and the operators' page (operations/). */

/** The last `days` days, today (China time) included. */
export function lastDays(days: number, now: Date): DayRange {
  const to = funnelDayOf(now);
  return { from: addDays(to, -(days - 1)), to };
}

function totalsOf(rows: readonly { event: FunnelEvent; count: number }[]): EventCounts {
  const totals = zeroCounts();
  for (const row of rows) totals[row.event] += row.count;
  return totals;
}

/** `GET /api/funnel`: totals of every event, and each day of the range (days without any: 0). */
export async function funnelCounts(db: Db, query: FunnelQuery): Promise<FunnelResponse> {
  const item: ItemFilter | undefined =
    query.kind && query.id ? { kind: query.kind, id: query.id } : undefined;
  const rows = await countsByDay(db, query, item);
  const byDay = new Map<string, EventCounts>();
  for (const row of rows) {
    const counts = byDay.get(row.day) ?? zeroCounts();
    counts[row.event] += row.count;
    byDay.set(row.day, counts);
  }
  return {
    totals: totalsOf(rows),
    days: daysFrom(query.from, query.to).map((day) => ({
      day,
      counts: byDay.get(day) ?? zeroCounts(),
    })),
  };
}

export interface TopItem {
  kind: ShareKind;
  id: string;
  /** Its name or title while it is in public view; undefined otherwise. */
  title: string | undefined;
  counts: EventCounts;
}

export interface FunnelReport extends FunnelResponse {
  range: DayRange;
  channels: { channel: ShareChannel; counts: EventCounts }[];
  kinds: { kind: ShareKind; counts: EventCounts }[];
  topItems: TopItem[];
}

/** Everything the operators' page shows for a range. */
export async function funnelReport(db: Db, range: DayRange, topCount = 20): Promise<FunnelReport> {
  const [counts, channelRows, kindRows, top] = await Promise.all([
    funnelCounts(db, range),
    countsByChannel(db, range),
    countsByKind(db, range),
    mostViewedItems(db, range, topCount),
  ]);
  const titles = await publicItemTitles(db, top);
  return {
    ...counts,
    range,
    channels: SHARE_CHANNELS.map((channel) => ({
      channel,
      counts: totalsOf(channelRows.filter((row) => row.channel === channel)),
    })),
    kinds: SHARE_KINDS.map((kind) => ({
      kind,
      counts: totalsOf(kindRows.filter((row) => row.kind === kind)),
    })),
    topItems: top.map((item) => ({ ...item, title: titles.get(`${item.kind}:${item.id}`) })),
  };
}
