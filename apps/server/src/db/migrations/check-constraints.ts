import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

/** Check constraints a migration drops, by name, and adds, by name and SQL condition. */
export interface CheckChanges {
  drop: readonly string[];
  add: Readonly<Record<string, string>>;
  /**
   * Work that must commit with the change or not at all (data the new checks judge), done first.
   * On PostgreSQL the migration's own transaction holds both; on SQLite, where a migration has no
   * transaction, it runs inside the rebuild's.
   */
  first?: (db: Kysely<unknown>) => Promise<void>;
}

/**
 * Drops and adds check constraints of a table. PostgreSQL alters them in place; SQLite cannot
 * alter a table's constraints, so the table is made again (sqliteWithChecks).
 */
export async function changeChecks(
  db: Kysely<unknown>,
  table: string,
  changes: CheckChanges,
): Promise<void> {
  if (!isPostgres(db)) {
    await sqliteWithChecks(db, table, changes);
    return;
  }
  await changes.first?.(db);
  for (const name of changes.drop) {
    await db.schema.alterTable(table).dropConstraint(name).execute();
  }
  for (const [name, condition] of Object.entries(changes.add)) {
    await db.schema.alterTable(table).addCheckConstraint(name, sql.raw(condition)).execute();
  }
}

/**
 * SQLite's way of changing a table's constraints ("Making Other Kinds Of Table Schema Changes",
 * https://www.sqlite.org/lang_altertable.html): with foreign keys off and in one transaction, a new
 * table from the stored definition as changed, every row copied (ids too: children's references
 * stay right), the old table dropped and the new one given its name, its indexes made again, and
 * the foreign keys checked before the commit.
 */
async function sqliteWithChecks(
  db: Kysely<unknown>,
  table: string,
  changes: CheckChanges,
): Promise<void> {
  const before = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  // Without effect inside a transaction: set before it begins.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await changes.first?.(trx);
      const { rows } = await sql<{ type: string; sql: string | null }>`
        select type, sql from sqlite_master where tbl_name = ${table}`.execute(trx);
      const definition = rows.find((row) => row.type === 'table')?.sql;
      if (!definition) throw new Error(`There is no table ${table} to change`);
      const rebuilt = `${table}__rebuilt`;
      let changed = definition.replace(/^CREATE TABLE "[^"]+"/, `CREATE TABLE "${rebuilt}"`);
      for (const name of changes.drop) changed = withoutConstraint(changed, name);
      for (const [name, condition] of Object.entries(changes.add)) {
        changed = `${changed.slice(0, -1)}, constraint "${name}" check (${condition}))`;
      }
      await sql.raw(changed).execute(trx);
      await sql`insert into ${sql.table(rebuilt)} select * from ${sql.table(table)}`.execute(trx);
      await sql`drop table ${sql.table(table)}`.execute(trx);
      await sql`alter table ${sql.table(rebuilt)} rename to ${sql.table(table)}`.execute(trx);
      // Indexes and triggers went with the old table (those SQLite made itself have no SQL).
      for (const row of rows) {
        if (row.type !== 'table' && row.sql !== null) await sql.raw(row.sql).execute(trx);
      }
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`Rows of ${table} lost their foreign keys`);
    });
  } finally {
    await sql
      .raw(`pragma foreign_keys = ${before.rows[0]?.foreign_keys ? 'on' : 'off'}`)
      .execute(db);
  }
}

/** A table's stored definition without its constraint `name` (`, constraint "name" check (…)`). */
function withoutConstraint(definition: string, name: string): string {
  const start = definition.indexOf(`, constraint "${name}" `);
  const open = definition.indexOf('(', start);
  if (start === -1 || open === -1) throw new Error(`The table has no constraint ${name}`);
  let depth = 0;
  let quoted = false;
  for (let index = open; index < definition.length; index++) {
    const character = definition[index];
    if (character === "'") quoted = !quoted;
    else if (!quoted && character === '(') depth++;
    else if (!quoted && character === ')' && --depth === 0) {
      return definition.slice(0, start) + definition.slice(index + 1);
    }
  }
  throw new Error(`The constraint ${name} does not end`);
}
