import { dataPaths } from '../config/data-paths.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { emptyPostgresDatabase } from './postgres-only.ts';
import { makeTempDataDir } from './test-app.ts';
import { TEST_ENGINE } from './test-engine.ts';

export interface EmptyTestDatabase {
  dataDir: string;
  /** What points a server or command at it: DATA_DIR, and DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
  /** Another connection to it (to look at what was written). */
  open: () => Promise<Db>;
  /** Drops it and removes the data directory. */
  remove: () => Promise<void>;
}

/**
 * A data directory whose database is empty, not even migrated, on the tests' engine (a test data
 * directory's own PostgreSQL database is a copy of the migrated template: test-engine.ts).
 */
export async function emptyTestDatabase(): Promise<EmptyTestDatabase> {
  const temp = await makeTempDataDir();
  if (TEST_ENGINE === 'sqlite') {
    const file = dataPaths(temp.dataDir).database;
    return {
      dataDir: temp.dataDir,
      env: { DATA_DIR: temp.dataDir },
      open: () => openDatabase({ engine: 'sqlite', file }),
      remove: temp.remove,
    };
  }
  const database = await emptyPostgresDatabase();
  return {
    dataDir: temp.dataDir,
    env: { DATA_DIR: temp.dataDir, DATABASE_URL: database.url },
    open: () => openDatabase({ engine: 'postgres', url: database.url, poolSize: 1 }),
    remove: async () => {
      await database.drop();
      await temp.remove();
    },
  };
}
