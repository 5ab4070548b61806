import type { Db } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { addFunnelCounts, type FunnelCountRow } from './funnel-repository.ts';

/**
 * Rows per transaction. A transaction that fails while the database answers is tried again row by
 * row, to find the rows it refuses: one refused row costs its neighbours a few hundred small writes,
 * never their counts.
 */
const ROWS_PER_WRITE = 500;

export interface RefusedRow {
  row: FunnelCountRow;
  error: unknown;
}

export interface WriteOutcome {
  /** Events written. */
  written: number;
  /** Rows not written because the database is away: for the next try. */
  unwritten: FunnelCountRow[];
  /** Why they were not (the database's error), when some were not. */
  unavailable?: unknown;
  /** Rows the database refused (a constraint, a trigger, a full disk): never tried again. */
  refused: RefusedRow[];
}

/** The events a set of rows counts. */
export const eventsOf = (rows: readonly FunnelCountRow[]) =>
  rows.reduce((sum, row) => sum + row.count, 0);

/**
 * Adds the rows to the stored counts in transactions of at most ROWS_PER_WRITE rows. Each row ends
 * in one place: written, refused, or (while the database is away) unwritten; none twice, since a
 * failed transaction wrote nothing.
 */
export async function writeFunnelRows(
  db: Db,
  rows: readonly FunnelCountRow[],
): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { written: 0, unwritten: [], refused: [] };
  const away = (error: unknown, from: number) => {
    outcome.unavailable = error;
    outcome.unwritten = rows.slice(from);
    return outcome;
  };
  for (let start = 0; start < rows.length; start += ROWS_PER_WRITE) {
    const chunk = rows.slice(start, start + ROWS_PER_WRITE);
    try {
      await addFunnelCounts(db, chunk);
      outcome.written += eventsOf(chunk);
      continue;
    } catch (error) {
      if (isDatabaseUnavailable(error)) return away(error, start);
    }
    for (const [index, row] of chunk.entries()) {
      try {
        await addFunnelCounts(db, [row]);
        outcome.written += row.count;
      } catch (error) {
        if (isDatabaseUnavailable(error)) return away(error, start + index);
        outcome.refused.push({ row, error });
      }
    }
  }
  return outcome;
}
