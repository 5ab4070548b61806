import type { Kysely } from 'kysely';
import { FUNNEL_EVENTS, type FunnelEvent, type ShareChannel } from '@guquan/contract/funnel-events';
import type { EventCounts } from '@guquan/contract/funnel';
import { SHARE_KINDS, type ShareKind } from '@guquan/contract/share-paths';
import type { Database } from '../db/schema.ts';
import { ITEM_TABLES, ITEM_TITLE_COLUMNS } from '../shares/item-tables.ts';

/**
 * The only code that reads and writes the funnel's daily counts (`share_funnel_days`). Counts
 * are added (an upsert adding to the stored count), never overwritten, so several servers can
 * write the same row in any order and every event counts once.
 */
type Db = Kysely<Database>;

export interface FunnelCountRow {
  day: string;
  kind: ShareKind;
  itemId: string;
  channel: ShareChannel;
  event: FunnelEvent;
  count: number;
}

/**
 * One item's counts of one day and channel as rows, an event a row (a count of 0 is no row): how
 * the demo seed and the tests write what they mean, `{ viewed: 600, open_tapped: 150 }`.
 */
export function funnelCountRows(
  where: Omit<FunnelCountRow, 'event' | 'count'>,
  counts: Partial<Record<FunnelEvent, number>>,
): FunnelCountRow[] {
  return (Object.entries(counts) as [FunnelEvent, number][])
    .filter(([, count]) => count > 0)
    .map(([event, count]) => ({ ...where, event, count }));
}

/** Rows per statement: SQLite allows 32,766 parameters, six a row. */
const ROWS_PER_STATEMENT = 1000;

/** Adds the counts in one transaction (the caller's, if it is one): all of them or none. */
export async function addFunnelCounts(db: Db, rows: readonly FunnelCountRow[]): Promise<void> {
  if (rows.length === 0) return;
  const add = async (trx: Db) => {
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      await trx
        .insertInto('share_funnel_days')
        .values(
          rows.slice(start, start + ROWS_PER_STATEMENT).map((row) => ({
            day: row.day,
            kind: row.kind,
            item_id: row.itemId,
            channel: row.channel,
            event: row.event,
            count: row.count,
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(['day', 'kind', 'item_id', 'channel', 'event']).doUpdateSet((eb) => ({
            count: eb('share_funnel_days.count', '+', eb.ref('excluded.count')),
          })),
        )
        .execute();
    }
  };
  if (db.isTransaction) await add(db);
  else await db.transaction().execute(add);
}

/**
 * Ids per existence check: one parameter each, far below what either engine takes in one
 * statement (SQLite 32,766, PostgreSQL 65,535), however many ids a batch holds.
 */
const IDS_PER_CHECK = 1000;

/** Which of these public ids are items of this kind (the rest are never counted). */
export async function existingItems(
  db: Db,
  kind: ShareKind,
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < ids.length; start += IDS_PER_CHECK) {
    const rows = await db
      .selectFrom(ITEM_TABLES[kind])
      .select('public_id')
      .where('public_id', 'in', ids.slice(start, start + IDS_PER_CHECK))
      .execute();
    for (const row of rows) found.add(row.public_id);
  }
  return found;
}

export interface DayRange {
  from: string;
  to: string;
}

/** A range of days, and one channel's events only when it names one. */
export interface FunnelScope extends DayRange {
  channel?: ShareChannel | undefined;
}

export interface ItemFilter {
  kind: ShareKind;
  id: string;
}

export function zeroCounts(): EventCounts {
  return Object.fromEntries(FUNNEL_EVENTS.map((event) => [event, 0])) as EventCounts;
}

function inRange(db: Db, range: FunnelScope, item?: ItemFilter) {
  let query = db
    .selectFrom('share_funnel_days')
    .where('day', '>=', range.from)
    .where('day', '<=', range.to);
  if (range.channel) query = query.where('channel', '=', range.channel);
  if (item) query = query.where('kind', '=', item.kind).where('item_id', '=', item.id);
  return query;
}

/** Counts per day and event in the range (days without any event are left out). */
export async function countsByDay(
  db: Db,
  range: FunnelScope,
  item?: ItemFilter,
): Promise<{ day: string; event: FunnelEvent; count: number }[]> {
  return inRange(db, range, item)
    .select(['day', 'event', (eb) => eb.fn.sum<number | string>('count').as('count')])
    .groupBy(['day', 'event'])
    .orderBy('day')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, count: Number(row.count) })));
}

/** Counts per channel and event in the range. */
export async function countsByChannel(
  db: Db,
  range: DayRange,
): Promise<{ channel: ShareChannel; event: FunnelEvent; count: number }[]> {
  return inRange(db, range)
    .select(['channel', 'event', (eb) => eb.fn.sum<number | string>('count').as('count')])
    .groupBy(['channel', 'event'])
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, count: Number(row.count) })));
}

/** Counts per kind of share and event in the range. */
export async function countsByKind(
  db: Db,
  range: FunnelScope,
): Promise<{ kind: ShareKind; event: FunnelEvent; count: number }[]> {
  return inRange(db, range)
    .select(['kind', 'event', (eb) => eb.fn.sum<number | string>('count').as('count')])
    .groupBy(['kind', 'event'])
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, count: Number(row.count) })));
}

export interface ItemFunnel {
  kind: ShareKind;
  id: string;
  counts: EventCounts;
}

/** The `limit` most viewed items of the range, each with its own counts of every event. */
export async function mostViewedItems(
  db: Db,
  range: FunnelScope,
  limit: number,
): Promise<ItemFunnel[]> {
  const top = await inRange(db, range)
    .where('event', '=', 'viewed')
    .select(['kind', 'item_id', (eb) => eb.fn.sum<number | string>('count').as('views')])
    .groupBy(['kind', 'item_id'])
    .orderBy('views', 'desc')
    .orderBy('kind')
    .orderBy('item_id')
    .limit(limit)
    .execute();
  if (top.length === 0) return [];
  const rows = await inRange(db, range)
    .where((eb) =>
      eb.or(
        top.map((item) => eb.and([eb('kind', '=', item.kind), eb('item_id', '=', item.item_id)])),
      ),
    )
    .select(['kind', 'item_id', 'event', (eb) => eb.fn.sum<number | string>('count').as('count')])
    .groupBy(['kind', 'item_id', 'event'])
    .execute();
  return top.map((item) => {
    const counts = zeroCounts();
    for (const row of rows) {
      if (row.kind === item.kind && row.item_id === item.item_id)
        counts[row.event] = Number(row.count);
    }
    return { kind: item.kind, id: item.item_id, counts };
  });
}

/**
 * What the operators' page calls each item: its name or title while it is public and not
 * removed; nothing otherwise (the page then shows the id alone).
 */
export async function publicItemTitles(
  db: Db,
  items: readonly { kind: ShareKind; id: string }[],
): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const idsOf = (kind: ShareKind) =>
    items.filter((item) => item.kind === kind).map((item) => item.id);
  for (const kind of SHARE_KINDS) {
    const ids = idsOf(kind);
    if (ids.length === 0) continue;
    const rows = await db
      .selectFrom(ITEM_TABLES[kind])
      .select(['public_id', (eb) => eb.ref(ITEM_TITLE_COLUMNS[kind]).as('title')])
      .where('visibility', '=', 'public')
      .where('removed_at', 'is', null)
      .where('public_id', 'in', ids)
      .execute();
    for (const row of rows) titles.set(`${kind}:${row.public_id}`, row.title);
  }
  return titles;
}

/** Removes the days before `firstKept`; returns how many rows went. */
export async function removeFunnelDaysBefore(db: Db, firstKept: string): Promise<number> {
  const result = await db
    .deleteFrom('share_funnel_days')
    .where('day', '<', firstKept)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
