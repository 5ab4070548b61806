import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'contract',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Generous, not Vitest's 5 s, 10 s, 1 s: on a slow machine only failures wait this long.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000 } },
  },
});
