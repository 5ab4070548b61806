import { existsSync } from 'node:fs';
import { webBuildFiles } from '../pages/web-build.ts';
import { builtCommand, WEB_DIST_DIR } from './build-paths.ts';

/**
 * Vitest's global setup for the server's tests: they render pages with the web app's build and
 * start the built commands, so without `npm run build` the run stops here, at once, saying so,
 * rather than failing test after test (issue 40, item 7).
 */
const web = webBuildFiles(WEB_DIST_DIR);
const NEEDED = [
  web.indexHtml,
  web.renderer,
  builtCommand('server'),
  builtCommand('migrate'),
  builtCommand('stand-in'),
];

/** The files of the build that are missing (absolute paths). */
export function missingBuildFiles(exists: (path: string) => boolean = existsSync): string[] {
  return NEEDED.filter((path) => !exists(path));
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
