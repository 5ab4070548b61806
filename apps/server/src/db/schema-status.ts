import { DEFAULT_MIGRATION_TABLE, sql, type Kysely } from 'kysely';
import type { AppMode } from '../config/env.ts';
import { migrateToLatest, migrations, type MigrationContext } from './migrations.ts';

/** Where a warning goes: the server's logger, or a command's (http/logging.ts's Log fits). */
export interface WarningLog {
  warn(details: object, message: string): void;
}

/** Where the database stands against this code's migrations. */
export interface SchemaStatus {
  /** This code's migrations the database has not applied, in the order they apply. */
  pending: readonly string[];
  /** Migrations the database has applied that this code does not know (a newer version's). */
  unknown: readonly string[];
  /** This code's last migration: the one a current database has applied last. */
  latest: string;
}

/**
 * Reads which migrations the database has applied (Kysely's table of them), writing nothing: no
 * such table (a new, empty database) means none. Kysely's Migrator would create its tables before
 * answering, so it is not asked.
 */
export async function readSchemaStatus<T>(
  db: Kysely<T>,
  context: MigrationContext,
): Promise<SchemaStatus> {
  const known = Object.keys(migrations(context));
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const applied = tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE)
    ? (
        await sql<{
          name: string;
        }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db)
      ).rows.map((row) => row.name)
    : [];
  return {
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)),
    latest: known.at(-1) ?? '(none)',
  };
}

/** What a production server or command says when the database lacks migrations of its code. */
export class SchemaBehindError extends Error {
  override name = 'SchemaBehindError';

  constructor(readonly missing: readonly string[]) {
    super(
      `The database lacks ${missing.length === 1 ? 'migration' : 'migrations'} ${missing.join(', ')} ` +
        'of this version: run the migrate command first (`npm run migrate`, or the image’s ' +
        '`migrate` command), then start again. A production server never migrates on start.',
    );
  }
}

/** The warning of a schema newer than the code (after a rollback of the code), naming what is new. */
export function newerSchemaWarning(unknown: readonly string[]): string {
  return `The database has migrations this version does not know (a newer version applied them): ${unknown.join(', ')}`;
}

/**
 * Makes sure the schema fits this code before a server or a command uses the database. Demo mode
 * migrates, as it always did: one process on its own data. Production never does: the migrate
 * step of a deployment (`npm run migrate`, a migration Job) runs once, before any server of the
 * new version, so servers never race to migrate nor change the schema under the old version's
 * servers. A database behind the code stops the start (SchemaBehindError). One ahead of it (the
 * code rolled back after the migrate step of a newer version) is used with a warning: rolling
 * back is the operators' call, and refusing would leave no version able to start.
 */
export async function prepareSchema<T>(
  db: Kysely<T>,
  { mode, context, log }: { mode: AppMode; context: MigrationContext; log: WarningLog },
): Promise<void> {
  if (mode === 'demo') {
    await migrateToLatest(db, context);
    return;
  }
  const status = await readSchemaStatus(db, context);
  if (status.pending.length > 0) throw new SchemaBehindError(status.pending);
  if (status.unknown.length > 0) {
    log.warn(
      { unknownMigrations: status.unknown },
      `${newerSchemaWarning(status.unknown)}; starting anyway`,
    );
  }
}
