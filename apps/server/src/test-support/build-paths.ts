import { fileURLToPath } from 'node:url';

/** What `npm run build` makes that the server's tests run: the web build and the commands. */

/** The web build the server tests render pages with (apps/web/dist). */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** A built command of the server (apps/server/dist/<name>.js), as `npm start` runs `server`. */
export function builtCommand(name: 'server' | 'migrate' | 'stand-in'): string {
  return fileURLToPath(new URL(`../../dist/${name}.js`, import.meta.url));
}
