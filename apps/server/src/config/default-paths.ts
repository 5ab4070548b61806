import { fileURLToPath } from 'node:url';
import type { ConfigDefaults } from './env.ts';

/**
 * Where the web build and the data are by default, from the URL of the entry point that runs
 * (src/server.ts, src/seed-cli.ts, or their bundles in dist/: all at the same depth). A module
 * deeper in src/ cannot compute this itself, since the bundle moves it to dist/.
 */
export function defaultPaths(entryUrl: string): ConfigDefaults {
  return {
    webDistDir: fileURLToPath(new URL('../../web/dist', entryUrl)),
    // The repository's own data/ (git-ignored).
    dataDir: fileURLToPath(new URL('../../../data', entryUrl)),
  };
}
