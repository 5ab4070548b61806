import { LRUCache } from 'lru-cache';
import type { FunnelEvent, ShareChannel } from '@guquan/contract/funnel-events';
import { PUBLIC_ID_PATTERN, type ShareKind } from '@guquan/contract/share-paths';
import type { Db } from '../db/database.ts';
import type { Log } from '../http/logging.ts';
import { funnelDayOf } from './funnel-days.ts';
import { existingItems, type FunnelCountRow } from './funnel-repository.ts';
import { eventsOf, writeFunnelRows } from './funnel-writes.ts';
import { pendingCounts } from './pending-counts.ts';

/**
 * The share funnel's counts, added up in memory and written at most once a second (an upsert
 * adding to the stored counts), and once more when the server closes. A `kill -9` loses at most
 * the last second. Only well-formed ids of items that exist are counted, so made-up ids cannot
 * fill the table; a row the database refuses is dropped and holds back no other. What is
 * counted, and why that is not tracking: docs/decisions/0018-share-funnel-and-operators-listener.md
 */
export interface FunnelCount {
  event: FunnelEvent;
  kind: ShareKind;
  /** The item's public id. */
  id: string;
  channel: ShareChannel;
}

/** Why events were not counted (the metrics' `reason`). */
export type FunnelDropReason = 'bot' | 'over_budget' | 'unknown_item' | 'overflow' | 'write_failed';

/** What the counter tells the metrics (operations/metrics.ts). */
export interface FunnelObserver {
  received(event: FunnelEvent): void;
  flushed(count: number): void;
  dropped(reason: FunnelDropReason, count?: number): void;
}

export interface FunnelCounterOptions {
  db: Db;
  /** How often the sums are written (default: every second). */
  intervalMs?: number;
  /**
   * The memory the sums may take while the database cannot take them, in bytes (an estimate per
   * row: pending-counts.ts); events past that are dropped.
   */
  maxPendingBytes?: number;
  now?: () => Date;
  observer?: FunnelObserver;
  /** The server's logger (app.log). */
  log?: Log;
}

export interface FunnelCounter {
  /** Counts one event now (in memory; written within a second). */
  count(event: FunnelCount): void;
  /** Writes what is held now; resolves when written (or kept for the next try). */
  flush(): Promise<void>;
  /** Starts writing every interval. */
  start(): void;
  /** Stops the timer and writes what is left. */
  stop(): Promise<void>;
}

/** About 90,000 rows of today's ids: a large catalogue's day, held through an outage. */
export const MAX_PENDING_BYTES = 32 * 1024 * 1024;
/** Ids known to exist, remembered so that a busy item is not looked up every second. */
const MAX_KNOWN_ITEMS = 50_000;

const itemOf = (row: FunnelCountRow) => `${row.kind}:${row.itemId}`;

/** What a log line says of a row: its fields, the id cut short (it is checked, but a log is no place to trust that). */
function describeRow({ day, kind, itemId, channel, event }: FunnelCountRow) {
  return { day, kind, id: itemId.slice(0, 64), channel, event };
}

interface CheckedRows {
  /** Rows of items that exist. */
  known: FunnelCountRow[];
  /** Rows not checked because the check failed: for the next try. */
  unchecked: FunnelCountRow[];
  /** Why the check failed, when it did. */
  error?: unknown;
}

export function createFunnelCounter({
  db,
  intervalMs = 1_000,
  maxPendingBytes = MAX_PENDING_BYTES,
  now = () => new Date(),
  observer,
  log,
}: FunnelCounterOptions): FunnelCounter {
  const pending = pendingCounts(maxPendingBytes);
  // The most recently counted items stay known (docs/decisions/0020-one-cache-library.md).
  const known = new LRUCache<string, true>({ max: MAX_KNOWN_ITEMS });
  const isKnown = (row: FunnelCountRow) => known.get(itemOf(row)) === true;
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  /**
   * Sorts the rows by whether their items exist; drops (and says so) those whose items do not,
   * so that a made-up id is never kept for another try.
   */
  async function checkItems(rows: readonly FunnelCountRow[]): Promise<CheckedRows> {
    const asked = new Map<ShareKind, Set<string>>();
    for (const row of rows) {
      if (isKnown(row)) continue;
      const ids = asked.get(row.kind) ?? new Set<string>();
      ids.add(row.itemId);
      asked.set(row.kind, ids);
    }
    const found = new Set<string>();
    const unchecked = new Set<ShareKind>();
    let failure: { error: unknown } | undefined;
    for (const [kind, ids] of asked) {
      if (failure) {
        unchecked.add(kind);
        continue;
      }
      try {
        for (const id of await existingItems(db, kind, [...ids])) found.add(`${kind}:${id}`);
      } catch (error) {
        failure = { error };
        unchecked.add(kind);
      }
    }
    const checked: CheckedRows = { known: [], unchecked: [], ...(failure ?? {}) };
    let unknownEvents = 0;
    for (const row of rows) {
      if (isKnown(row) || found.has(itemOf(row))) checked.known.push(row);
      else if (unchecked.has(row.kind)) checked.unchecked.push(row);
      else unknownEvents += row.count;
    }
    for (const item of found) known.set(item, true);
    if (unknownEvents > 0) observer?.dropped('unknown_item', unknownEvents);
    return checked;
  }

  /** Puts sums that could not be written back, for the next try (as far as there is room). */
  function keep(rows: readonly FunnelCountRow[]): void {
    let lost = 0;
    for (const row of rows) if (!pending.add(row, row.count)) lost += row.count;
    if (lost > 0) observer?.dropped('write_failed', lost);
  }

  async function write(): Promise<void> {
    if (pending.size === 0) return;
    const checked = await checkItems(pending.take());
    const outcome = await writeFunnelRows(db, checked.known);
    if (outcome.written > 0) observer?.flushed(outcome.written);
    keep([...checked.unchecked, ...outcome.unwritten]);
    const error = 'error' in checked ? checked.error : outcome.unavailable;
    if (checked.unchecked.length + outcome.unwritten.length > 0)
      log?.warn(
        { err: error, held: pending.size },
        'the share funnel could not be written; kept for the next try',
      );
    const [first] = outcome.refused;
    if (first) {
      const refused = outcome.refused.map(({ row }) => row);
      observer?.dropped('write_failed', eventsOf(refused));
      log?.warn(
        { err: first.error, rows: refused.length, first: describeRow(first.row) },
        'the database refused rows of the share funnel; dropped',
      );
    }
  }

  function flush(): Promise<void> {
    // One write at a time: a slow database makes the next second wait, never doubles a batch.
    flushing ??= write().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  return {
    count({ event, kind, id, channel }) {
      observer?.received(event);
      // Every path checks the id where it comes in; this is the last word (pending-counts.ts
      // keeps fields apart in any case, but nothing else may be held, or looked up).
      if (!PUBLIC_ID_PATTERN.test(id)) {
        observer?.dropped('unknown_item');
        return;
      }
      const row = { day: funnelDayOf(now()), kind, itemId: id, channel, event };
      if (!pending.add(row, 1)) observer?.dropped('overflow');
    },
    flush,
    start() {
      timer ??= setInterval(() => {
        if (pending.size > 0 && !flushing) void flush();
      }, intervalMs).unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await flushing;
      await flush();
    },
  };
}
