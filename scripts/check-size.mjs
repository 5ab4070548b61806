// The start-up size budget: the JavaScript a first visit loads before any page chunk — the entry
// and every chunk it imports statically (what index.html loads and preloads) — gzip-compressed.
// Fails when it grows past the budget. Page chunks load on demand and are reported apart.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const STARTUP_JS_BUDGET_GZIP_BYTES = 110_000;

const clientDir = new URL('../apps/web/dist/client/', import.meta.url).pathname;
const manifest = JSON.parse(await readFile(join(clientDir, '.vite/manifest.json'), 'utf8'));

async function sizes(file) {
  const content = await readFile(join(clientDir, file));
  return { raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
}

function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('The build manifest has no entry: run `npm run build`.');

let raw = 0;
let gzip = 0;
for (const key of staticClosure(entryKey)) {
  const size = await sizes(manifest[key].file);
  raw += size.raw;
  gzip += size.gzip;
}

const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
console.log(
  `start-up JavaScript: ${kB(raw)} raw, ${kB(gzip)} gzip (budget ${kB(STARTUP_JS_BUDGET_GZIP_BYTES)} gzip)`,
);

const pages = Object.entries(manifest).filter(([key]) => key.startsWith('src/app/routes/'));
let largest = { key: '', gzip: 0 };
for (const [key, chunk] of pages) {
  const size = await sizes(chunk.file);
  if (size.gzip > largest.gzip) largest = { key, gzip: size.gzip };
}
console.log(
  `${pages.length} route chunks load on demand; largest: ${largest.key} (${kB(largest.gzip)} gzip)`,
);

if (gzip > STARTUP_JS_BUDGET_GZIP_BYTES) {
  console.error(
    `Over budget by ${kB(gzip - STARTUP_JS_BUDGET_GZIP_BYTES)}: keep start-up code small; load it with the page that needs it.`,
  );
  process.exit(1);
}
