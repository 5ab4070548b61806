import { sql, type Expression, type Kysely } from 'kysely';
import { isPostgres } from './database.ts';

/**
 * Multi-row statements within both engines' limits on bound values (SQLite's 32,766, PostgreSQL's
 * 65,535): a batch of events is written in a few statements, never one per event.
 */
const MAX_VALUES_PER_STATEMENT = 16_000;

/** `items` in slices of at most `size`. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    slices.push(items.slice(start, start + size));
  }
  return slices;
}

/** Rows of `columns` values each one statement can bind. */
export function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.floor(MAX_VALUES_PER_STATEMENT / columns));
}

/** Rows of `columns` values each, in slices one statement can bind. */
export function rowSlices<T>(rows: readonly T[], columns: number): T[][] {
  return chunked(rows, rowsPerStatement(columns));
}

/**
 * Rows of one statement made from lists (a cabinet's goods, what a cabinet waits for) at most:
 * a delivery's 250 cabinets of 1,000 goods each make 250,000 rows, which are never built at once,
 * but a statement (one short step of the event loop: db/event-loop-turns.ts) at a time.
 */
export const LIST_ROWS_PER_STATEMENT = 1_000;

/**
 * The rows each group makes (`rowsOf`), written by `write` in statements of at most `maxRows`:
 * only one statement's rows are held at a time.
 */
export async function writeRowsOf<G, R>(
  groups: Iterable<G>,
  rowsOf: (group: G) => readonly R[],
  write: (rows: R[]) => Promise<unknown>,
  maxRows = LIST_ROWS_PER_STATEMENT,
): Promise<void> {
  let rows: R[] = [];
  for (const group of groups) {
    for (const row of rowsOf(group)) {
      rows.push(row);
      if (rows.length >= maxRows) {
        await write(rows);
        rows = [];
      }
    }
  }
  if (rows.length > 0) await write(rows);
}

/**
 * `items` in slices of at most `maxCount` whose weights (`weightOf`: bytes of text) add up to at
 * most `maxWeight`, but for an item heavier than that alone.
 */
export function weighedSlices<T>(
  items: readonly T[],
  weightOf: (item: T) => number,
  maxWeight: number,
  maxCount: number,
): T[][] {
  const slices: T[][] = [];
  let slice: T[] = [];
  let weight = 0;
  for (const item of items) {
    const itemWeight = weightOf(item);
    if (slice.length > 0 && (weight + itemWeight > maxWeight || slice.length >= maxCount)) {
      slices.push(slice);
      slice = [];
      weight = 0;
    }
    slice.push(item);
    weight += itemWeight;
  }
  if (slice.length > 0) slices.push(slice);
  return slices;
}

/** Ids an `in (…)` list of one statement holds at most. */
export const IDS_PER_STATEMENT = 5_000;

/** Ids for an `in (…)` list, in slices one statement can bind. */
export function idSlices<T>(ids: Iterable<T>): T[][] {
  return chunked([...new Set(ids)], IDS_PER_STATEMENT);
}

/** A boolean as each engine keeps it: PostgreSQL's boolean, SQLite's 0 or 1. */
export function booleanValue<T>(db: Kysely<T>, value: boolean): Expression<boolean> {
  return isPostgres(db) ? sql<boolean>`${value}` : sql<boolean>`${value ? 1 : 0}`;
}

/** An ISO 8601 time with any offset as the database keeps timestamps: UTC, `toISOString()`. */
export function storedTime(iso: string): string {
  return new Date(iso).toISOString();
}
