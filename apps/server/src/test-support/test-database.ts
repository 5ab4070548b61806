import { dataPaths, type DataPaths } from '../config/data-paths.ts';
import type { Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { loadPhoneProtection } from '../crypto/phone-keys.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import { buildTestApp, makeTempDataDir } from './test-app.ts';
import { openTestDataDirDatabase } from './test-engine.ts';

export interface TestDatabase {
  db: Db;
  /** Its data directory: `openTestDataDirDatabase(dataDir)` opens another connection to it. */
  dataDir: string;
  paths: DataPaths;
  /** The phone keys of this data directory (made like demo mode's). */
  phones: PhoneProtection;
  /** Closes the database and removes its directory. */
  close: () => Promise<void>;
}

/**
 * A database of its own in a fresh directory (on the tests' engine: test-engine.ts), migrated,
 * and with the demo community (and the site's own demo records) unless asked not to.
 */
export async function openTestDatabase({ seed = true } = {}): Promise<TestDatabase> {
  const temp = await makeTempDataDir();
  const paths = dataPaths(temp.dataDir);
  // The demo community comes as on a demo server: a demo app on this directory receives the
  // stand-in platform's events and fetches their images (buildTestApp), then closes.
  if (seed) await (await buildTestApp({ DATA_DIR: temp.dataDir })).close();
  const db = await openTestDataDirDatabase(temp.dataDir);
  const phones = await loadPhoneProtection(null, paths.phoneKey);
  await migrateToLatest(db, { phones });
  return {
    db,
    dataDir: temp.dataDir,
    paths,
    phones,
    close: async () => {
      await db.destroy();
      await temp.remove();
    },
  };
}
