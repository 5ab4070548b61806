// Renders the pages that change only with a deployment (the website, every legal page and
// version) into the web build's `prerendered/` directory, once per language and class of device,
// and nginx's answers for when no server can (the servers' own 503 page and body) into its
// `errors/`. `npm run build` runs it after both builds; these files are sent as they are.
//
//   node apps/server/dist/prerender.js [web-dist-dir]
import { join, resolve } from 'node:path';
import { writeUnavailableFiles } from './http/unavailable-page.ts';
import { prerenderStaticPages, prerenderDir } from './pages/static-pages.ts';
import { loadWebBuild } from './pages/web-build.ts';

const distDir = resolve(process.argv[2] ?? process.env.WEB_DIST_DIR ?? 'apps/web/dist');
const started = performance.now();
const build = await loadWebBuild(distDir);
const files = await prerenderStaticPages(build);
console.log(
  `Built ${files} pages ahead into ${prerenderDir(build)} in ${Math.round(performance.now() - started)} ms`,
);
const errorsDir = join(distDir, 'errors');
await writeUnavailableFiles(errorsDir);
console.log(`Wrote nginx's 503 page and body into ${errorsDir}`);
