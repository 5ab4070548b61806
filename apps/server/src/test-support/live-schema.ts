import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { isPostgres } from '../db/database.ts';

/**
 * The schema as the migrations built it, read back from the database on either engine: what the
 * tests hold the list of a user's data (db/user-data.ts) against.
 */
export interface LiveColumn {
  table: string;
  column: string;
  dataType: string;
}

export interface ForeignKey {
  table: string;
  column: string;
  parent: string;
  parentColumn: string;
}

/** Every table (Kysely's own left out) with its columns. */
export async function liveColumns(db: Db): Promise<LiveColumn[]> {
  const tables = await db.introspection.getTables();
  return tables.flatMap((table) =>
    table.columns.map((column) => ({
      table: table.name,
      column: column.name,
      dataType: column.dataType.toLowerCase(),
    })),
  );
}

export async function liveTables(db: Db): Promise<string[]> {
  return [...new Set((await liveColumns(db)).map((column) => column.table))].sort();
}

/** Every foreign key (all of ours have one column). */
export async function foreignKeys(db: Db): Promise<ForeignKey[]> {
  const query = isPostgres(db)
    ? sql<ForeignKey>`
        select child.relname as "table", child_column.attname as "column",
               parent.relname as "parent", parent_column.attname as "parentColumn"
        from pg_constraint c
        join pg_class child on child.oid = c.conrelid
        join pg_class parent on parent.oid = c.confrelid
        join pg_attribute child_column
          on child_column.attrelid = c.conrelid and child_column.attnum = c.conkey[1]
        join pg_attribute parent_column
          on parent_column.attrelid = c.confrelid and parent_column.attnum = c.confkey[1]
        where c.contype = 'f' and child.relnamespace = current_schema()::regnamespace`
    : sql<ForeignKey>`
        select m.name as "table", p."from" as "column", p."table" as "parent", p."to" as "parentColumn"
        from sqlite_master m, pragma_foreign_key_list(m.name) p
        where m.type = 'table'`;
  return (await query.execute(db)).rows;
}

/** A column named as one that holds a user's id, with or without a foreign key. */
const USER_COLUMN_NAME =
  /(^|_)(user|owner|author|designer|creator|member|sender|recipient|buyer|seller|account)_id$/;

/**
 * Every column that refers to a user: a foreign key to `users.id`, or a name that says so
 * (user_id, owner_id, author_id, …), and `users.id` itself.
 */
export async function userReferringColumns(db: Db): Promise<LiveColumn[]> {
  const keys = await foreignKeys(db);
  const toUsers = new Set(
    keys
      .filter((key) => key.parent === 'users' && key.parentColumn === 'id')
      .map((key) => `${key.table}.${key.column}`),
  );
  return (await liveColumns(db)).filter(
    ({ table, column }) =>
      (table === 'users' && column === 'id') ||
      toUsers.has(`${table}.${column}`) ||
      USER_COLUMN_NAME.test(column),
  );
}

/** How many rows of `table` hold one of `values` in `column` (all rows without a column). */
export async function countRows(
  db: Db,
  table: string,
  where?: { column: string; values: readonly (string | number)[] },
): Promise<number> {
  const condition =
    where === undefined
      ? sql`1 = 1`
      : where.values.length === 0
        ? sql`1 = 0`
        : sql`${sql.ref(where.column)} in (${sql.join(where.values)})`;
  const result = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(table)} where ${condition}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
