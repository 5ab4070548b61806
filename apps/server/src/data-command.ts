import type { DataPaths } from './config/data-paths.ts';
import { configuredPaths } from './config/data-paths.ts';
import { defaultPaths } from './config/default-paths.ts';
import { ConfigError, loadConfig, type Config } from './config/env.ts';
import { loadPhoneProtection } from './crypto/phone-keys.ts';
import type { PhoneProtection } from './crypto/phone-protection.ts';
import { DatabaseConnectionError, openDatabase, type Db } from './db/database.ts';
import { prepareSchema, SchemaBehindError } from './db/schema-status.ts';
import { consoleLog } from './http/logging.ts';

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
 * keys and, as a server would, migrate (demo mode) or refuse a database behind the code
 * (production: db/schema-status.ts); run the command; close the database whatever happened.
 */
export function runDataCommand(
  entryUrl: string,
  command: (context: DataCommandContext) => Promise<void>,
): Promise<void> {
  return runOnDatabase(entryUrl, async (context) => {
    await prepareSchema(context.db, {
      mode: context.config.mode,
      context: { phones: context.phones },
      log: consoleLog,
    });
    await command(context);
  });
}

/**
 * runDataCommand's beginning and ending with the schema left as found (the migrate command's). A
 * bad setting, an unreachable database or one behind the code ends it with the message that names
 * it, anything else with the error; either way with exit code 1.
 */
export function runOnDatabase(
  entryUrl: string,
  command: (context: DataCommandContext) => Promise<void>,
): Promise<void> {
  const main = async () => {
    const config = loadConfig(process.env, defaultPaths(entryUrl));
    const paths = configuredPaths(config);
    const db = await openDatabase(config.database);
    try {
      const phones = await loadPhoneProtection(config.phoneKeys, paths.phoneKey);
      await command({ config, paths, db, phones });
    } finally {
      await db.destroy();
    }
  };
  return main().catch((error: unknown) => {
    console.error(
      error instanceof ConfigError ||
        error instanceof DatabaseConnectionError ||
        error instanceof SchemaBehindError
        ? error.message
        : error,
    );
    process.exit(1);
  });
}
