import {
  SHARE_CHANNELS,
  type FunnelEvent,
  type ShareChannel,
} from '@guquan/contract/funnel-events';
import type { EventCounts, FunnelQuery, FunnelResponse } from '@guquan/contract/funnel';
import { SHARE_KINDS, type ShareKind } from '@guquan/contract/share-paths';
import type { Db } from '../db/database.ts';
import { addDays, daySpan, daysFrom } from './funnel-days.ts';
import {
  countsByChannel,
  countsByDay,
  countsByKind,
  mostViewedItems,
  publicItemTitles,
  zeroCounts,
  type DayRange,
  type FunnelScope,
  type ItemFilter,
} from './funnel-repository.ts';

/** What the operators read: `/api/funnel` and the operators' page (operations/). */

function totalsOf(rows: readonly { event: FunnelEvent; count: number }[]): EventCounts {
  const totals = zeroCounts();
  for (const row of rows) totals[row.event] += row.count;
  return totals;
}

/** The days just before `range`, as many as it has: what the operators' page compares with. */
export function previousRange(range: DayRange): DayRange {
  const span = daySpan(range.from, range.to);
  return { from: addDays(range.from, -span), to: addDays(range.from, -1) };
}

/**
 * `GET /api/funnel`: totals of every event, and each day of the range (days without any: 0);
 * one channel's only when the scope names one (the operators' page).
 */
export async function funnelCounts(
  db: Db,
  query: FunnelQuery & { channel?: ShareChannel | undefined },
): Promise<FunnelResponse> {
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

/** A period's sums: in all (of the scope's channel), per channel (all of them) and per kind. */
export interface PeriodTotals {
  range: DayRange;
  totals: EventCounts;
  channels: { channel: ShareChannel; counts: EventCounts }[];
  kinds: { kind: ShareKind; counts: EventCounts }[];
}

export interface FunnelReport extends FunnelResponse, PeriodTotals {
  /** The channel the page shows alone; undefined: every channel. */
  channel: ShareChannel | undefined;
  topItems: TopItem[];
  /** The same sums for the days just before, as many as the range has. */
  previous: PeriodTotals;
}

/** The sums of a period; by channel always over every channel (the page filters by one). */
async function periodTotals(db: Db, scope: FunnelScope): Promise<PeriodTotals> {
  const range = { from: scope.from, to: scope.to };
  const [dayRows, channelRows, kindRows] = await Promise.all([
    countsByDay(db, scope),
    countsByChannel(db, range),
    countsByKind(db, scope),
  ]);
  return {
    range,
    totals: totalsOf(dayRows),
    channels: SHARE_CHANNELS.map((channel) => ({
      channel,
      counts: totalsOf(channelRows.filter((row) => row.channel === channel)),
    })),
    kinds: SHARE_KINDS.map((kind) => ({
      kind,
      counts: totalsOf(kindRows.filter((row) => row.kind === kind)),
    })),
  };
}

/** Everything the operators' page shows for a range (and a channel), and the period before. */
export async function funnelReport(
  db: Db,
  scope: FunnelScope,
  topCount = 20,
): Promise<FunnelReport> {
  const [counts, current, previous, top] = await Promise.all([
    funnelCounts(db, scope),
    periodTotals(db, scope),
    periodTotals(db, { ...previousRange(scope), channel: scope.channel }),
    mostViewedItems(db, scope, topCount),
  ]);
  const titles = await publicItemTitles(db, top);
  return {
    ...counts,
    ...current,
    channel: scope.channel,
    previous,
    topItems: top.map((item) => ({ ...item, title: titles.get(`${item.kind}:${item.id}`) })),
  };
}
