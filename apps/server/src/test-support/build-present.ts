import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Vitest's global setup for the server's tests: they render pages with the web app's build and
 * start the built commands, so without `npm run build` the run stops here, at once, saying so,
 * rather than failing test after test (issue 40, item 7).
 */
const NEEDED = [
  '../../../web/dist/client/index.html',
  '../../../web/dist/server/entry-server.js',
  '../../dist/server.js',
  '../../dist/migrate.js',
  '../../dist/stand-in.js',
];

/** The files of the build that are missing (absolute paths). */
export function missingBuildFiles(exists: (path: string) => boolean = existsSync): string[] {
  return NEEDED.map((path) => fileURLToPath(new URL(path, import.meta.url))).filter(
    (path) => !exists(path),
  );
}

/** Vitest's global setup (it passes the project, which this does not need). */
export function setup(): void {
  requireBuild();
}

export function requireBuild(exists: (path: string) => boolean = existsSync): void {
  const missing = missingBuildFiles(exists);
  if (missing.length > 0) {
    throw new Error(
      `The server's tests need the build: run \`npm run build\` first (missing: ${missing.join(', ')}).`,
    );
  }
}
