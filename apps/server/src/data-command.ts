import type { DataPaths } from './config/data-paths.ts';
import { configuredPaths } from './config/data-paths.ts';
import { defaultPaths } from './config/default-paths.ts';
import { ConfigError, loadConfig, type Config } from './config/env.ts';
import { loadPhoneProtection } from './crypto/phone-keys.ts';
import type { PhoneProtection } from './crypto/phone-protection.ts';
import { DatabaseConnectionError, openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';

/** What a command works on: the data a server started with the same environment would use. */
export interface DataCommandContext {
  config: Config;
  paths: DataPaths;
  db: Db;
  phones: PhoneProtection;
}

/**
 * The one beginning and ending of the command-line jobs (`npm run seed`, `npm run
 * delete-accounts`): read the environment as the server does, open the database, load the phone
 * keys and migrate; run the command; close the database whatever happened. A bad setting or an
 * unreachable database ends it with the message that names it, anything else with the error;
 * either way with exit code 1.
 */
export function runDataCommand(
  entryUrl: string,
  command: (context: DataCommandContext) => Promise<void>,
): Promise<void> {
  const main = async () => {
    const config = loadConfig(process.env, defaultPaths(entryUrl));
    const paths = configuredPaths(config);
    const db = await openDatabase(config.database);
    try {
      const phones = await loadPhoneProtection(config.phoneKeys, paths.phoneKey);
      await migrateToLatest(db, { phones });
      await command({ config, paths, db, phones });
    } finally {
      await db.destroy();
    }
  };
  return main().catch((error: unknown) => {
    console.error(
      error instanceof ConfigError || error instanceof DatabaseConnectionError
        ? error.message
        : error,
    );
    process.exit(1);
  });
}
