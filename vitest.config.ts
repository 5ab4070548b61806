import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'apps/web',
      'apps/server',
      // The server tests once more, on PostgreSQL.
      'apps/server/vitest.postgres.config.ts',
      // Checks on the repository as a whole (its documents and their references).
      {
        test: {
          name: 'repo',
          environment: 'node',
          include: ['tests/repo/**/*.test.ts'],
          // Generous, not Vitest's 5 s: on a slow machine only failures wait this long.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
