import { configuredPaths } from '../config/data-paths.ts';
import type { Config } from '../config/env.ts';
import { loadPhoneProtection } from '../crypto/phone-keys.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';

/**
 * What a deployment's migrate step (`npm run migrate`) does before its production servers start,
 * in process: migrates the database `config` names, with its phone keys, and closes it. Gives the
 * migrations applied.
 */
export async function migrateFirst(config: Config): Promise<readonly string[]> {
  const phones = await loadPhoneProtection(config.phoneKeys, configuredPaths(config).phoneKey);
  const db = await openDatabase(config.database);
  try {
    return await migrateToLatest(db, { phones });
  } finally {
    await db.destroy();
  }
}
