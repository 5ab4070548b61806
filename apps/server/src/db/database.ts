import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/**
 * Opens (creating if needed) the SQLite database. WAL lets pages be read while a write goes on;
 * foreign keys are off in SQLite unless asked for; the busy timeout rides out a seed running
 * beside the server instead of failing at once; secure_delete overwrites what is deleted (a
 * deleted account, an old plain phone number) instead of leaving it in free pages of the file.
 */
export function openSqliteDatabase(file: string): Db {
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('secure_delete = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
