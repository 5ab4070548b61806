import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    // Generous, not Vitest's 5 s, 10 s, 1 s: on a slow machine only failures wait this long. A
    // test that builds its app in its body waits as a hook does: the demo images alone may take
    // 90 s on a loaded machine (waitUntilNoImageWaits, test-support/demo-community.ts).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000 } },
    include: ['src/**/*.test.ts'],
    // PostgreSQL-only tests run in project server-postgres (vitest.postgres.config.ts).
    exclude: ['src/**/*.postgres.test.ts'],
    // Without the build the run stops at once, saying to build.
    globalSetup: ['src/test-support/build-present.ts'],
  },
});
