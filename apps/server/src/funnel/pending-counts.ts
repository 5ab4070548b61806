import type { FunnelCountRow } from './funnel-repository.ts';

/**
 * The sums a funnel counter holds until they are written: one row object per day, kind, item,
 * channel and event, kept as the row it will be written as (never a string to split again), and
 * bounded by an estimate of the memory they take, so that neither many rows nor long values can
 * grow a server while the database cannot take them.
 */
export interface PendingCounts {
  /** Adds `count` to the row's sum; false, adding nothing, when a new row would pass the bound. */
  add(row: Omit<FunnelCountRow, 'count'>, count: number): boolean;
  /** Every sum held, taken out: nothing is held after. */
  take(): FunnelCountRow[];
  readonly size: number;
  /** The estimate of the memory held, in bytes. */
  readonly bytes: number;
}

/** What a row costs besides its key's characters: the Map's entry, the row object, its strings. */
const ROW_OVERHEAD_BYTES = 200;

/**
 * A key that no two different rows share whatever their values hold (JSON quotes and escapes
 * each one): it only finds the row, whose own fields are what is written.
 */
function keyOf({ day, kind, itemId, channel, event }: Omit<FunnelCountRow, 'count'>): string {
  return JSON.stringify([day, kind, itemId, channel, event]);
}

/** What a row held under `key` takes, in bytes (two a character, as the worst case). */
const bytesOfKey = (key: string) => ROW_OVERHEAD_BYTES + 2 * key.length;

/** The estimate of what a held row takes, in bytes. */
export function pendingRowBytes(row: Omit<FunnelCountRow, 'count'>): number {
  return bytesOfKey(keyOf(row));
}

export function pendingCounts(maxBytes: number): PendingCounts {
  let rows = new Map<string, FunnelCountRow>();
  let bytes = 0;
  return {
    add(row, count) {
      const key = keyOf(row);
      const held = rows.get(key);
      if (held) {
        held.count += count;
        return true;
      }
      const cost = bytesOfKey(key);
      if (bytes + cost > maxBytes) return false;
      const { day, kind, itemId, channel, event } = row;
      rows.set(key, { day, kind, itemId, channel, event, count });
      bytes += cost;
      return true;
    },
    take() {
      const taken = [...rows.values()];
      rows = new Map();
      bytes = 0;
      return taken;
    },
    get size() {
      return rows.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
