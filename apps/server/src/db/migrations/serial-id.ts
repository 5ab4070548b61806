import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

/** SQLite fills an `integer primary key` by itself; PostgreSQL needs an identity column. */
export function serialId(db: Kysely<unknown>) {
  const postgres = isPostgres(db);
  return (column: ColumnDefinitionBuilder) =>
    postgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey();
}
