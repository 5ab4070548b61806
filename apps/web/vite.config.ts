import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
// A relative path: Vite bundles it into the config, where a workspace package would be external.
import { CSP_NONCE_PLACEHOLDER } from '../../packages/contract/src/html-template.ts';

export default defineConfig({
  base: '/anime_merch_web/',
  plugins: [react()],
  resolve: {
    // Texts, facts and documents live in /content, outside the app's code.
    alias: { '@content': fileURLToPath(new URL('../../content', import.meta.url)) },
  },
  // Vite stamps this on its script and preload tags; the server puts each request's nonce there.
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  build: {
    outDir: 'dist/client',
    manifest: true,
    emptyOutDir: true,
  },
  ssr: {
    // The contract package exports TypeScript source: bundle it into the server build.
    noExternal: ['@guquan/contract'],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
