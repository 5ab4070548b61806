// The start-up size budgets: the JavaScript a first visit loads before it can hydrate, gzip. For
// the shell, the entry and every chunk it imports statically (what every page loads); for each
// route, that plus its route module's chunks, which the server preloads with its page (the same
// closure as apps/server/src/pages/page-assets.ts). Each kind of page has a budget, and a route of
// a kind without one fails, so no page's start-up grows unnoticed. Share pages must also start
// without zod: the schemas load only when the browser fetches a share itself. A page with a start
// module (share pages) starts with that module's chunks only, without React, and loads the shell
// and its page on the visitor's first intent: both are measured, each against its own budget.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * Per kind of page (the route table's `kind`), and `shell` for what every page loads: what each
 * measured when set (docs/performance.md, "Size budget"), and a few kB to grow into.
 */
export const STARTUP_JS_BUDGETS_GZIP_BYTES = {
  shell: 110_000,
  website: 120_000,
  // A share page starts without React (docs/decisions/0031-share-pages-start-without-react.md):
  // what it loads before the visitor acts, and what it loads then (its app, as it was at start).
  share: 50_000,
  'share (app)': 128_000,
  legal: 112_000,
  // 147 kB until issue 41 (2026-12-03) gave every page one more chunk, 0.4 kB: the modules the
  // share pages' start-up script shares with the shell (docs/performance.md, "Size budget").
  'in-app': 148_000,
  'not-found': 110_000,
};

/** Kinds of page whose start-up must not carry zod (it is only for what the browser fetches). */
const WITHOUT_ZOD = new Set(['share', 'share (app)', 'website', 'legal', 'not-found']);
/** Kinds of page that start without React. */
const WITHOUT_REACT = new Set(['share']);

const distDir = new URL('../apps/web/dist/', import.meta.url).pathname;
const clientDir = join(distDir, 'client');
const manifest = JSON.parse(await readFile(join(clientDir, '.vite/manifest.json'), 'utf8'));
// The route table as the build has it, and what each page starts with beyond the shell in each
// language (the server bundle exports them: the server preloads the same).
const { routeTable, pageModules, pageStart } = await import(
  pathToFileURL(join(distDir, 'server/entry-server.js')).href
);
const LANGUAGES = ['zh-CN', 'en'];

const chunkSizes = new Map();
async function sizeOf(key) {
  let size = chunkSizes.get(key);
  if (!size) {
    const content = await readFile(join(clientDir, manifest[key].file));
    size = {
      raw: content.length,
      gzip: gzipSync(content, { level: 9 }).length,
      // zod's classes keep their names through minification.
      zod: content.includes('ZodError'),
      react: manifest[key].name === 'react',
    };
    chunkSizes.set(key, size);
  }
  return size;
}

function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, seen);
  return seen;
}

async function measure(keys) {
  let raw = 0;
  let gzip = 0;
  const zod = [];
  const react = [];
  for (const key of keys) {
    const size = await sizeOf(key);
    raw += size.raw;
    gzip += size.gzip;
    if (size.zod) zod.push(manifest[key].file);
    if (size.react) react.push(manifest[key].file);
  }
  return { raw, gzip, zod, react };
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('The build manifest has no entry: run `npm run build`.');
const shell = staticClosure(entryKey);

/**
 * [name, kind, chunk keys per language]: the shell, then each page once (several routes share
 * one); a page is measured in each language (share pages load their language's texts).
 */
const pages = [['shell', 'shell', [shell]]];
/**
 * The pages a route starts with, named, with the loader data each shows: a share page starts with
 * the part it shows (its kind's view, or the failure states: share-parts.tsx), so each is measured;
 * any other route's page is one.
 */
function pagesOf(route) {
  if (!route.share) return [[route.module, undefined]];
  return [
    [`${route.module}: ${route.share}`, { result: { state: 'ok' } }],
    [`${route.module}: failure`, { result: { state: 'not_found' } }],
  ];
}
const seenPages = new Set();
for (const route of routeTable) {
  for (const [name, loaderData] of pagesOf(route)) {
    // Routes that start with the same modules are one page here (the legal routes, the share
    // pages' failures).
    const startsWith = pageModules(route, LANGUAGES[0], loaderData);
    if (seenPages.has(startsWith.join(' '))) continue;
    seenPages.add(startsWith.join(' '));
    const perLanguage = LANGUAGES.map((language) => {
      const keys = new Set(shell);
      for (const moduleKey of pageModules(route, language, loaderData)) {
        if (!manifest[moduleKey]) throw new Error(`The build has no chunk for ${moduleKey}`);
        staticClosure(moduleKey, keys);
      }
      return keys;
    });
    const start = pageStart(route);
    if (!start) {
      pages.push([name, route.kind, perLanguage]);
      continue;
    }
    // What it loads before the visitor acts: its start module's chunks (page-assets.ts), no shell.
    if (!manifest[start]) throw new Error(`The build has no chunk for ${start}`);
    pages.push([name, route.kind, [staticClosure(start)]]);
    pages.push([`${name} (app)`, `${route.kind} (app)`, perLanguage]);
  }
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const failures = [];
console.log('start-up JavaScript, gzip (raw), against the budget of its kind of page:');
for (const [name, kind, perLanguage] of pages) {
  // The language whose page starts with the most.
  const sizes = await Promise.all(perLanguage.map(measure));
  const { raw, gzip, zod, react } = sizes.reduce((largest, size) =>
    size.gzip > largest.gzip ? size : largest,
  );
  const budget = STARTUP_JS_BUDGETS_GZIP_BYTES[kind];
  console.log(
    `  ${`${name} (${kind})`.padEnd(28)} ${kB(gzip).padStart(9)} (${kB(raw)})  budget ${budget === undefined ? 'none' : kB(budget)}`,
  );
  if (budget === undefined)
    failures.push(`${name}: no budget for pages of kind '${kind}' in scripts/check-size.mjs`);
  else if (gzip > budget)
    failures.push(`${name} (${kind}) is over its budget by ${kB(gzip - budget)}`);
  if (zod.length > 0 && WITHOUT_ZOD.has(kind))
    failures.push(`${name} (${kind}) starts with zod (in ${zod.join(', ')})`);
  if (react.length > 0 && WITHOUT_REACT.has(kind))
    failures.push(`${name} (${kind}) starts with React (in ${react.join(', ')})`);
}

if (failures.length > 0) {
  console.error(
    `${failures.join('\n')}\nKeep start-up code small; load it with the page or the action that needs it.`,
  );
  process.exit(1);
}
