// Bundles the server into dist/server.js, the seed command into dist/seed.js and the account
// deletion job into dist/delete-accounts.js. Dependencies stay in node_modules; the workspace's own
// packages (TypeScript source) are bundled in.
import { build } from 'esbuild';
import { cp, readFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@guquan/'));

await build({
  entryPoints: {
    server: 'src/server.ts',
    seed: 'src/seed-cli.ts',
    'delete-accounts': 'src/delete-accounts-cli.ts',
    prerender: 'src/prerender-cli.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  external,
  sourcemap: true,
  logLevel: 'info',
});

// The StoreKit TEST chain the demo server signs and verifies with (never trusted in production),
// next to the bundle, where src/membership/test-chain.ts looks for it.
await cp('src/membership/test-chain', 'dist/test-chain', { recursive: true });
