import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { legalMarkdownPlugin } from './build/legal-markdown-plugin.ts';
import { pagePartsChunks } from './build/page-parts-chunks.ts';
import { preloadLists } from './build/preload-lists.ts';
import { reactFreeChunks, type ReactFreeChunkName } from './build/react-free-chunks.ts';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const contentDir = fileURLToPath(new URL('../../content', import.meta.url));

/** What the build writes into the code (src/build-constants.d.ts). */
const site = JSON.parse(readFileSync(join(contentDir, 'site.json'), 'utf8')) as {
  appLinks: { scheme: string };
};
const BUILD_CONSTANTS = { __APP_SCHEME__: JSON.stringify(site.appLinks.scheme) };

/**
 * React Router 7 exports only its development build (remix-run/react-router#14102): dev warnings
 * and checks the browser would download and run. The browser's build takes its production build.
 */
const reactRouterDir = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const reactRouterProduction = [
  { find: /^react-router$/, replacement: join(reactRouterDir, 'dist/production/index.mjs') },
  {
    find: /^react-router\/dom$/,
    replacement: join(reactRouterDir, 'dist/production/dom-export.mjs'),
  },
];

/**
 * The app shell: the entry and what it imports (router, layout, language, the page frame), plus
 * small pieces most pages share (each would be a request of its own). Not the modal dialog: every
 * dialog that uses it (the viewer, the guide, the poster, the missing-app sheet) loads on the tap
 * that opens it, and brings it along.
 */
const SHELL_MODULES = new RegExp(
  [
    String.raw`apps[\/]web[\/]src[\/]app[\/](?!routes[\/])`,
    String.raw`apps[\/]web[\/]src[\/]config[\/]`,
    String.raw`apps[\/]web[\/]src[\/]lib[\/](chunks|client|i18n|layout|routing)[\/]`,
    // Where the entry offers the bridge simulator on a demo server (app/bridge-simulator.ts).
    String.raw`apps[\/]web[\/]src[\/]lib[\/]bridge[\/]bridge-stand-in\.ts`,
    String.raw`apps[\/]web[\/]src[\/]components[\/](button\.module\.css|page-column[\/]|not-found-view[\/]|status-view[\/])`,
    String.raw`packages[\/]contract[\/]src[\/](language|site-paths|share-paths)\.ts`,
  ].join('|'),
);

/**
 * A CSS module imported for its stylesheet alone (`import './x.module.css'`) keeps it in the
 * importer's chunk. Vite marks CSS modules free of side effects, so such an import would be
 * dropped, and the stylesheet would go with a lazy chunk that uses the classes: a share page's
 * skeleton, whose code comes after the page has started (features/share/page/drawn-later.ts), must find its
 * styles inlined with the page's, not fetched.
 */
const stylesheetOnlyImports: Plugin = {
  name: 'stylesheet-only-imports',
  enforce: 'post',
  transform(code, id) {
    return /\.module\.css$/.test(id) ? { code, moduleSideEffects: 'no-treeshake' } : undefined;
  },
};

/** A share page's own code in one chunk, each part's (share-parts.tsx) in its own. */
function sharePageChunks() {
  return pagePartsChunks({
    route: /[\\/]src[\\/]app[\\/]routes[\\/]share-pages\.tsx$/,
    parts: /[\\/]src[\\/]features[\\/]share[\\/]page[\\/]share-parts\.tsx$/,
    entry: /[\\/]src[\\/]app[\\/]entry-client\.tsx$/,
    routes: /[\\/]src[\\/]app[\\/]routes[\\/][\w-]+\.tsx$/,
    ownCode: /[\\/]apps[\\/]web[\\/]src[\\/]|[\\/]packages[\\/]contract[\\/]src[\\/]/,
    demoOnly: /[\\/]src[\\/]features[\\/]bridge-simulator[\\/]/,
  });
}

/**
 * What a share page needs before React (docs/decisions/0031-share-pages-start-without-react.md):
 * the share pages' start-up script (its tap code, the funnel's reports, the flexible layout),
 * in chunks that import no React.
 */
function shareStartChunks() {
  return reactFreeChunks({
    roots: /[\\/]src[\\/]features[\\/]share[\\/]start[\\/]share-start\.ts$/,
    entry: /[\\/]src[\\/]app[\\/]entry-client\.tsx$/,
    shareRoute: /[\\/]src[\\/]app[\\/]routes[\\/]share-pages\.tsx$/,
    routes: /[\\/]src[\\/]app[\\/]routes[\\/][\w-]+\.tsx$/,
  });
}

export default defineConfig(({ command, isSsrBuild }) => {
  const sharePage = sharePageChunks();
  const shareStart = shareStartChunks();
  const reactFreeGroup = (name: ReactFreeChunkName) => ({
    name,
    test: (id: string) => shareStart.chunkOf(id) === name,
    priority: 3,
    includeDependenciesRecursively: false,
  });
  const preloads = preloadLists();
  return {
    base: '/anime_merch_web/',
    define: BUILD_CONSTANTS,
    plugins: [
      react(),
      legalMarkdownPlugin(contentDir),
      stylesheetOnlyImports,
      sharePage.plugin,
      shareStart.plugin,
      preloads.plugin,
    ],
    resolve: {
      alias: [
        // Texts, facts and documents live in /content, outside the app's code.
        { find: '@content', replacement: contentDir },
        // The browser's build only: the server's keeps importing the package, as Node resolves it.
        ...(command === 'build' && !isSsrBuild ? reactRouterProduction : []),
      ],
    },
    // No `html.cspNonce`: pages carry no nonce, their policy lists the hashes of their one inline
    // script and style (apps/server/src/pages/page-csp.ts), so the same HTML can be cached and sent
    // to everyone. Vite's preload helper then adds its <link>s without a nonce, which script-src and
    // style-src 'self' allow (they load from our origin).
    build: {
      outDir: 'dist/client',
      manifest: true,
      modulePreload: preloads.modulePreload,
      emptyOutDir: true,
      rolldownOptions: {
        output: {
          // React and the router change rarely: one chunk of their own stays cached across releases.
          codeSplitting: {
            groups: [
              reactFreeGroup('start-base'),
              reactFreeGroup('share-base'),
              reactFreeGroup('app-opening'),
              reactFreeGroup('app-taps'),
              {
                name: 'react',
                test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
                priority: 2,
              },
              {
                // What every page starts with: one file, not eight small ones, so a phone starts
                // fewer requests before it can hydrate.
                name: 'shell',
                test: SHELL_MODULES,
                priority: 1,
              },
              {
                name: 'share-pages',
                test: sharePage.test,
                // Only what the test names: their imports that other pages start with too stay in
                // the chunks those pages load.
                includeDependenciesRecursively: false,
              },
            ],
          },
          // Name each legal document's chunk after it (they would all be called after their date).
          chunkFileNames: (chunk) => {
            const legal = /[\\/]legal[\\/]([\w-]+)[\\/]([\w-]+)\.md$/.exec(
              chunk.facadeModuleId ?? '',
            );
            return legal
              ? `assets/legal-${legal[1]}-${legal[2]}-[hash].js`
              : 'assets/[name]-[hash].js';
          },
        },
      },
    },
    ssr: {
      // The contract package exports TypeScript source: bundle it into the server build.
      noExternal: ['@guquan/contract'],
    },
    test: {
      name: 'web',
      environment: 'jsdom',
      // Generous, not Vitest's 5 s, 10 s, 1 s: on a slow machine only failures wait this long.
      testTimeout: 60_000,
      hookTimeout: 120_000,
      expect: { poll: { timeout: 20_000 } },
      include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
      setupFiles: ['src/test-support/prepare-share-pages.ts'],
    },
  };
});
