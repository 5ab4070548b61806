import { defineConfig } from 'vitest/config';

/**
 * The server tests again, on PostgreSQL: one throwaway server for the run
 * (src/test-support/postgres-global-setup.ts), a fresh database per test data directory. Left out:
 * tests that never touch a database, and the SQLite-only ones (the crash test and the phones-at-rest
 * test read the SQLite files; the demo seam test builds bundles).
 */
export default defineConfig({
  test: {
    name: 'server-postgres',
    environment: 'node',
    // Generous, not Vitest's 5 s, 10 s, 1 s: on a slow machine only failures wait this long. A
    // test that builds its app in its body waits as a hook does: the demo images alone may take
    // 90 s on a loaded machine (waitUntilNoImageWaits, test-support/demo-community.ts).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000 } },
    include: ['src/**/*.test.ts'],
    exclude: [
      'src/crash-consistency.test.ts',
      'src/crypto/phones-at-rest.test.ts',
      'src/demo-seam.test.ts',
      'src/server-ports.test.ts',
      'src/config/env.test.ts',
      'src/config/zod-issues.test.ts',
      'src/http/api-paths.test.ts',
      'src/http/unavailable-page.test.ts',
      'src/pages/html-document.test.ts',
      'src/http/html-escape.test.ts',
      'src/http/request-language.test.ts',
      'src/account-deletion/sms-sender.test.ts',
      'src/demo/demo-sms-sender.test.ts',
      'src/plugins/periodic-work.test.ts',
      'src/operations/prometheus-config.test.ts',
      'src/http/request-id.test.ts',
      'src/funnel/pending-counts.test.ts',
      'src/platform-import/event-batches.test.ts',
      'src/platform-import/import-progress.test.ts',
      'src/platform-import/signed-delivery.test.ts',
      'src/http/signed-deliveries.test.ts',
      'src/timing/timing.test.ts',
    ],
    env: { TEST_DATABASE: 'postgres' },
    globalSetup: ['src/test-support/build-present.ts', 'src/test-support/postgres-global-setup.ts'],
  },
});
