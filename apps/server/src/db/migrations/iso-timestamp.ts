import { sql, type Expression, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

/**
 * The column type of a timestamp. Timestamps are ISO 8601 UTC text in one fixed format
 * (`Date.prototype.toISOString()`, e.g. `2026-11-23T12:00:00.000Z`), so comparing or sorting
 * them as text compares them in time, provided the comparison is byte by byte. SQLite compares
 * text byte by byte (BINARY); PostgreSQL uses the database's collation, and a language's
 * collation (en_US, zh_CN) weighs punctuation differently, so there the column is `COLLATE "C"`:
 * the same order, and the same index use, whatever locale the database was created with.
 * SQLite's DDL stays what it always was.
 */
export function isoTimestamp(db: Kysely<unknown>): 'varchar(30)' | Expression<unknown> {
  return isPostgres(db) ? sql`varchar(30) collate "C"` : 'varchar(30)';
}
