import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startStandInPlatform, type StandInPlatform } from '../stand-in/stand-in-platform.ts';

export interface StandInsPerTest {
  /** The current test's data directory (a new one for each test). */
  dataDir: () => string;
  /** Starts a stand-in platform on the test's data directory; it is closed after the test. */
  start: () => Promise<StandInPlatform>;
  /** Closes every stand-in started so far (to start one again on what they kept). */
  closeAll: () => Promise<void>;
}

/**
 * Gives each test of the file a data directory of its own for stand-in platforms, and closes the
 * stand-ins it started and removes the directory after it. Call at the top of a test file.
 */
export function standInsPerTest(prefix: string): StandInsPerTest {
  let dataDir = '';
  const started: StandInPlatform[] = [];
  const closeAll = async (): Promise<void> => {
    await Promise.all(started.splice(0).map((platform) => platform.close()));
  };
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await closeAll();
    await rm(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir: () => dataDir,
    start: async () => {
      const platform = await startStandInPlatform({ dataDir });
      started.push(platform);
      return platform;
    },
    closeAll,
  };
}
