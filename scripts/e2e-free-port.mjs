// Prints a port for the browser tests when E2E_PORT is not set (playwright.config.ts runs it once,
// in Playwright's main process): the first of E2E_PORT_SPAN ports on 127.0.0.1 that are all free
// just now, since the suite's servers listen beside it (its link domain at +1, the operators'
// listener at +50, the specs' own servers at +11 to +13, +61, +62, +71 and +100 onwards).
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';

/** How many ports from E2E_PORT the suite may use (see playwright.config.ts). */
export const E2E_PORT_SPAN = 128;
const LOWEST = 20_000;
const HIGHEST = 60_000;

/** Listens on the port and closes again; false when something holds it. */
function isFree(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A base port whose span of ports is free (tries blocks from a random start, then gives up). */
export async function findFreeSpan({ span = E2E_PORT_SPAN, host = '127.0.0.1', tries = 50 } = {}) {
  const blocks = Math.floor((HIGHEST - LOWEST) / span);
  const first = Math.floor(Math.random() * blocks);
  for (let attempt = 0; attempt < tries; attempt += 1) {
    const base = LOWEST + ((first + attempt) % blocks) * span;
    let free = true;
    for (let offset = 0; offset < span && free; offset += 1)
      free = await isFree(base + offset, host);
    if (free) return base;
  }
  throw new Error(`No ${span} free ports in a row on ${host} between ${LOWEST} and ${HIGHEST}.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await findFreeSpan());
}
