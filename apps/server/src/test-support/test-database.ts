import { dataPaths, type DataPaths } from '../config/data-paths.ts';
import type { Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { seedDemoData } from '../demo/seed/seed.ts';
import { makeTempDataDir, TEST_IMAGE_SCALE } from './test-app.ts';
import { openTestDataDirDatabase } from './test-engine.ts';

export interface TestDatabase {
  db: Db;
  paths: DataPaths;
  /** Closes the database and removes its directory. */
  close: () => Promise<void>;
}

/**
 * A database of its own in a fresh directory (on the tests' engine: test-engine.ts), migrated,
 * and seeded unless asked not to.
 */
export async function openTestDatabase({ seed = true } = {}): Promise<TestDatabase> {
  const temp = await makeTempDataDir();
  const paths = dataPaths(temp.dataDir);
  const db = await openTestDataDirDatabase(temp.dataDir);
  await migrateToLatest(db);
  if (seed) await seedDemoData(db, paths, { imageScale: TEST_IMAGE_SCALE });
  return {
    db,
    paths,
    close: async () => {
      await db.destroy();
      await temp.remove();
    },
  };
}
