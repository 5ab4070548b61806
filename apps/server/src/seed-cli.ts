import { defaultPaths } from './config/default-paths.ts';
import { configuredPaths } from './config/data-paths.ts';
import { describeDatabaseUrl } from './config/database-config.ts';
import { ConfigError, loadConfig } from './config/env.ts';
import { DatabaseConnectionError, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { seedDemoData, wipeData } from './demo/seed/seed.ts';

/**
 * `npm run seed`: wipes the database (SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL) and
 * DATA_DIR's images and fills them with the demo data again.
 * Reads the same environment as the server, so it seeds the data the server would use.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env, defaultPaths(import.meta.url));
  const paths = configuredPaths(config);
  const db = await openDatabase(config.database);
  try {
    const started = performance.now();
    await migrateToLatest(db);
    await wipeData(db, paths);
    await seedDemoData(db, paths);
    const ms = Math.round(performance.now() - started);
    const into =
      config.database.engine === 'postgres'
        ? `PostgreSQL ${describeDatabaseUrl(config.database.url)} (images in ${config.dataDir})`
        : config.dataDir;
    console.log(`Seeded the demo data into ${into} in ${ms} ms.`);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof DatabaseConnectionError
      ? error.message
      : error,
  );
  process.exit(1);
});
