import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // PostgreSQL-only tests run in project server-postgres (vitest.postgres.config.ts).
    exclude: ['src/**/*.postgres.test.ts'],
  },
});
