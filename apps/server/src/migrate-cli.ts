import { runOnDatabase } from './data-command.ts';
import { migrateToLatest } from './db/migrations.ts';
import { newerSchemaWarning, readSchemaStatus } from './db/schema-status.ts';

/**
 * `npm run migrate` (the image's `migrate` command, a deployment's migration Job): applies the
 * pending migrations to the database the server with the same environment would use, once, and
 * says which; run it before starting or rolling out a version (production servers refuse a
 * database behind their code: db/schema-status.ts). Safe to run again, and at once from several
 * places: on PostgreSQL Kysely's migration lock makes the others wait, then find nothing to do
 * (db/migrations.ts). A bad setting or an unreachable database: the message, and exit code 1.
 */
void runOnDatabase(import.meta.url, async ({ db, phones }) => {
  const context = { phones };
  const before = await readSchemaStatus(db, context);
  if (before.unknown.length > 0) {
    // A rollback of the code: its migrate step must not fail the rollout. With nothing of its own
    // pending, the Migrator (which refuses to run beside migrations it does not know) is not asked.
    console.warn(`Warning: ${newerSchemaWarning(before.unknown)}.`);
  }
  const applied = before.pending.length > 0 ? await migrateToLatest(db, context) : [];
  console.log(
    applied.length > 0
      ? `Applied ${applied.length} ${applied.length === 1 ? 'migration' : 'migrations'}: ${applied.join(', ')}; the schema is current (${before.latest}).`
      : `The schema is already current (${before.latest}): nothing to apply.`,
  );
});
