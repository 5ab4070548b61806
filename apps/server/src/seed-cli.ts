import { describeDatabaseUrl } from './config/database-config.ts';
import { runDataCommand } from './data-command.ts';
import { wipeData } from './demo/seed/seed.ts';

/**
 * `npm run seed`: wipes the database (SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL) and
 * DATA_DIR's images, so that the next start of the demo server, finding its copy empty, receives
 * the demo community again from the stand-in platform, through the platform's doors
 * (docs/decisions/0024-the-stand-in-platform.md). Reads the same environment as the server, so it
 * empties the data the server would use.
 */
void runDataCommand(import.meta.url, async ({ config, paths, db }) => {
  const started = performance.now();
  await wipeData(db, paths);
  const ms = Math.round(performance.now() - started);
  const into =
    config.database.engine === 'postgres'
      ? `PostgreSQL ${describeDatabaseUrl(config.database.url)} (images in ${config.dataDir})`
      : config.dataDir;
  console.log(
    `Emptied ${into} in ${ms} ms: the demo server's next start receives the demo community again.`,
  );
});
