import { defineConfig } from 'vitest/config';

/**
 * The cluster tests (`npm run test:cluster`): PostgreSQL, Redis, app servers and nginx as real
 * processes, faults included. They need a build and take about a minute, so they are not a
 * project of the unit run.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    environment: 'node',
    include: ['tests/cluster/**/*.test.ts'],
    // One cluster at a time: the machine has two cores.
    fileParallelism: false,
    // Limits for a hung test, not speed promises: a machine at a quarter of its speed passes
    // (issue 42). The promises themselves (5 s freshness, no request lost) are asserted as such.
    testTimeout: 240_000,
    hookTimeout: 300_000,
  },
});
