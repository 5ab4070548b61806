import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { TEST_ENGINE } from './test-engine.ts';

/** A fault a test plants in the database: writes to a table fail with `message`. */
export interface FailingTrigger {
  name: string;
  table: string;
  event: 'insert' | 'update';
  /** Only updates of this column. */
  column?: string;
  /** Only the row with this id. */
  rowId?: number;
  /** Only rows whose text column holds this value (a table without an id). */
  rowWhere?: { column: string; equals: string };
  message: string;
}

/**
 * Plants a trigger that makes a write fail mid-transaction, as a full disk or a dying server
 * would, in the dialect of the tests' engine (SQLite's RAISE, PostgreSQL's PL/pgSQL function).
 */
export async function plantFailingTrigger(db: Db, trigger: FailingTrigger) {
  const { name, table, event, column, rowId, rowWhere, message } = trigger;
  const on = `before ${event}${column ? ` of ${column}` : ''} on ${table}`;
  const condition =
    rowId !== undefined
      ? `new.id = ${rowId}`
      : rowWhere && `new.${rowWhere.column} = '${rowWhere.equals.replaceAll("'", "''")}'`;
  if (TEST_ENGINE === 'sqlite') {
    const when = condition === undefined ? '' : ` when ${condition}`;
    await sql
      .raw(`create trigger ${name} ${on}${when} begin select raise(abort, '${message}'); end`)
      .execute(db);
    return;
  }
  const when = condition === undefined ? '' : ` when (${condition})`;
  await sql
    .raw(
      `create function ${name}_fn() returns trigger language plpgsql as $$ begin raise exception '${message}'; end $$`,
    )
    .execute(db);
  await sql
    .raw(`create trigger ${name} ${on} for each row${when} execute function ${name}_fn()`)
    .execute(db);
}

/** Takes a planted trigger away again. */
export async function removeFailingTrigger(
  db: Db,
  trigger: Pick<FailingTrigger, 'name' | 'table'>,
) {
  if (TEST_ENGINE === 'sqlite') {
    await sql.raw(`drop trigger ${trigger.name}`).execute(db);
    return;
  }
  await sql.raw(`drop trigger ${trigger.name} on ${trigger.table}`).execute(db);
  await sql.raw(`drop function ${trigger.name}_fn()`).execute(db);
}
