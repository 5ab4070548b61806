import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { shareTables } from './migrations/0001-share-tables.ts';
import { sessionTables } from './migrations/0002-sessions.ts';
import { designPointTables } from './migrations/0003-designs-points.ts';
import { membershipTables } from './migrations/0004-membership.ts';
import { accountDeletionTables } from './migrations/0005-account-deletion.ts';

/**
 * Every migration, in order, listed in code: the server is one esbuild bundle, so there is no
 * migration folder to scan at run time. Names sort in the order they apply; never rename one.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-share-tables': shareTables,
  '0002-sessions': sessionTables,
  '0003-designs-points': designPointTables,
  '0004-membership': membershipTables,
  '0005-account-deletion': accountDeletionTables,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Brings the database to the latest version; safe to run on every start. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new MigrationError(`Database migration ${failed ?? '(setup)'} failed`, { cause: error });
  }
}
