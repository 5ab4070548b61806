import type { FunnelEvent, ShareChannel } from '@guquan/contract/funnel-events';
import type { ShareKind } from '@guquan/contract/share-paths';
import type { Db } from '../db/database.ts';
import { funnelDayOf } from './funnel-days.ts';
import { addFunnelCounts, existingItems, type FunnelCountRow } from './funnel-repository.ts';

/**
 * The share funnel's counts, added up in memory and written at most once a second in one
 * transaction (an upsert adding to the stored counts), and once more when the server closes.
 * A `kill -9` loses at most the last second. Only items that exist are counted, so made-up ids
 * cannot fill the table. What is counted, and why that is not tracking:
 * docs/decisions/0018-share-funnel-and-operators-listener.md
 */
export interface FunnelCount {
  event: FunnelEvent;
  kind: ShareKind;
  /** The item's public id. */
  id: string;
  channel: ShareChannel;
}

/** What the counter tells the metrics (operations/metrics.ts). */
export interface FunnelObserver {
  received(event: FunnelEvent): void;
  flushed(count: number): void;
  dropped(reason: 'unknown_item' | 'overflow' | 'write_failed', count?: number): void;
}

export interface FunnelCounterOptions {
  db: Db;
  /** How often the sums are written (default: every second). */
  intervalMs?: number;
  /** Sums held at most while the database cannot take them; events past that are dropped. */
  maxPending?: number;
  now?: () => Date;
  observer?: FunnelObserver;
  log?: (message: string, details: Record<string, unknown>) => void;
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

const SEPARATOR = '\t';
/** Ids known to exist, remembered so that a busy item is not looked up every second. */
const MAX_KNOWN_ITEMS = 50_000;

function keyOf(day: string, { event, kind, id, channel }: FunnelCount): string {
  return [day, kind, id, channel, event].join(SEPARATOR);
}

function rowOf(key: string, count: number): FunnelCountRow {
  const [day = '', kind, itemId = '', channel, event] = key.split(SEPARATOR);
  return {
    day,
    kind: kind as ShareKind,
    itemId,
    channel: channel as ShareChannel,
    event: event as FunnelEvent,
    count,
  };
}

export function createFunnelCounter({
  db,
  intervalMs = 1_000,
  maxPending = 100_000,
  now = () => new Date(),
  observer,
  log = () => undefined,
}: FunnelCounterOptions): FunnelCounter {
  let pending = new Map<string, number>();
  const known = new Set<string>();
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  /** Keeps only the rows of items that exist; counts the others as dropped. */
  async function ofKnownItems(rows: FunnelCountRow[]): Promise<FunnelCountRow[]> {
    const unknown = new Map<ShareKind, Set<string>>();
    for (const row of rows) {
      if (known.has(`${row.kind}:${row.itemId}`)) continue;
      const ids = unknown.get(row.kind) ?? new Set<string>();
      ids.add(row.itemId);
      unknown.set(row.kind, ids);
    }
    for (const [kind, ids] of unknown) {
      const found = await existingItems(db, kind, [...ids]);
      if (known.size + found.size > MAX_KNOWN_ITEMS) known.clear();
      for (const id of found) known.add(`${kind}:${id}`);
    }
    const kept = rows.filter((row) => known.has(`${row.kind}:${row.itemId}`));
    const droppedCount = rows
      .filter((row) => !known.has(`${row.kind}:${row.itemId}`))
      .reduce((sum, row) => sum + row.count, 0);
    if (droppedCount > 0) observer?.dropped('unknown_item', droppedCount);
    return kept;
  }

  /** Puts sums that could not be written back, for the next try (as far as there is room). */
  function keep(batch: Map<string, number>): void {
    let lost = 0;
    for (const [key, count] of batch) {
      const held = pending.get(key);
      if (held === undefined && pending.size >= maxPending) lost += count;
      else pending.set(key, (held ?? 0) + count);
    }
    if (lost > 0) observer?.dropped('write_failed', lost);
  }

  async function write(): Promise<void> {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      const rows = await ofKnownItems([...batch].map(([key, count]) => rowOf(key, count)));
      await addFunnelCounts(db, rows);
      observer?.flushed(rows.reduce((sum, row) => sum + row.count, 0));
    } catch (error) {
      // Nothing of the batch was written (one transaction): it waits for the next second.
      keep(batch);
      log('the share funnel could not be written; kept for the next try', {
        err: error,
        held: pending.size,
      });
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
    count(event) {
      observer?.received(event.event);
      const key = keyOf(funnelDayOf(now()), event);
      const held = pending.get(key);
      if (held === undefined && pending.size >= maxPending) {
        observer?.dropped('overflow');
        return;
      }
      pending.set(key, (held ?? 0) + 1);
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
