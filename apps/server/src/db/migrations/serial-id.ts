import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** SQLite fills an `integer primary key` by itself; PostgreSQL needs an identity column. */
export function serialId(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (column: ColumnDefinitionBuilder) =>
    postgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey();
}
