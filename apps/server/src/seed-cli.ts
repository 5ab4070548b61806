import { describeDatabaseUrl } from './config/database-config.ts';
import { runDataCommand } from './data-command.ts';
import { seedDemoData, wipeData } from './demo/seed/seed.ts';

/**
 * `npm run seed`: wipes the database (SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL) and
 * DATA_DIR's images and fills them with the demo data again.
 * Reads the same environment as the server, so it seeds the data the server would use.
 */
void runDataCommand(import.meta.url, async ({ config, paths, db, phones }) => {
  const started = performance.now();
  await wipeData(db, paths);
  await seedDemoData(db, paths, phones);
  const ms = Math.round(performance.now() - started);
  const into =
    config.database.engine === 'postgres'
      ? `PostgreSQL ${describeDatabaseUrl(config.database.url)} (images in ${config.dataDir})`
      : config.dataDir;
  console.log(`Seeded the demo data into ${into} in ${ms} ms.`);
});
