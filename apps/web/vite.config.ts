import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { legalMarkdownPlugin } from './build/legal-markdown-plugin.ts';
import { defineConfig } from 'vitest/config';
// A relative path: Vite bundles it into the config, where a workspace package would be external.
import { CSP_NONCE_PLACEHOLDER } from '../../packages/contract/src/html-template.ts';

const contentDir = fileURLToPath(new URL('../../content', import.meta.url));

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

export default defineConfig(({ command, isSsrBuild }) => ({
  base: '/anime_merch_web/',
  plugins: [react(), legalMarkdownPlugin(contentDir)],
  resolve: {
    alias: [
      // Texts, facts and documents live in /content, outside the app's code.
      { find: '@content', replacement: contentDir },
      // The browser's build only: the server's keeps importing the package, as Node resolves it.
      ...(command === 'build' && !isSsrBuild ? reactRouterProduction : []),
    ],
  },
  // Vite stamps this on its script and preload tags; the server puts each request's nonce there.
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  build: {
    outDir: 'dist/client',
    manifest: true,
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // React and the router change rarely: one chunk of their own stays cached across releases.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
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
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
  },
}));
