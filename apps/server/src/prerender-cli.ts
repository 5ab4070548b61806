// Renders the pages that change only with a deployment (the website, every legal page and
// version) into the web build's `prerendered/` directory, once per language and class of device.
// `npm run build` runs it after both builds; the server sends these files as they are.
//
//   node apps/server/dist/prerender.js [web-dist-dir]
import { resolve } from 'node:path';
import { prerenderStaticPages, prerenderDir } from './pages/static-pages.ts';
import { loadWebBuild } from './pages/web-build.ts';

const distDir = resolve(process.argv[2] ?? process.env.WEB_DIST_DIR ?? 'apps/web/dist');
const started = performance.now();
const build = await loadWebBuild(distDir);
const files = await prerenderStaticPages(build);
console.log(
  `Built ${files} pages ahead into ${prerenderDir(build)} in ${Math.round(performance.now() - started)} ms`,
);
