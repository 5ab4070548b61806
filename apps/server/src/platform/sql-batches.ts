import { sql, type Expression, type Kysely } from 'kysely';
import { isPostgres } from '../db/database.ts';

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

/** Rows of `columns` values each, in slices one statement can bind. */
export function rowSlices<T>(rows: readonly T[], columns: number): T[][] {
  return chunked(rows, Math.max(1, Math.floor(MAX_VALUES_PER_STATEMENT / columns)));
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
