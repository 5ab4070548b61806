import { defineConfig } from 'vitest/config';

/**
 * The image tests (`npm run test:image`): build the OCI image with podman (`npm run image`; layers
 * and the base reused from podman's storage) and run it as an operator would. Minutes on a fresh
 * machine, so not a project of the unit run.
 */
export default defineConfig({
  test: {
    name: 'image',
    environment: 'node',
    include: ['tests/image/**/*.test.ts'],
    // One image for all: built once, before any file; the files one after another.
    globalSetup: ['tests/image/build-image.ts'],
    fileParallelism: false,
    // Limits for a hung step, not speed promises: a fresh machine builds the base and the image
    // (about 7 minutes on two busy cores) before the first test.
    testTimeout: 240_000,
    hookTimeout: 1_200_000,
  },
});
