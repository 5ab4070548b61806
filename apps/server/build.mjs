// Bundles the server into dist/ (see build-config.mjs): `node build.mjs` for the demo and
// production server alike, `node build.mjs --production` for a production-only build without
// any demo code or seed command.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { serverBuildOptions } from './build-config.mjs';

const production = process.argv.includes('--production');
// Nothing stale survives a build (an older build copied the StoreKit test chain into dist/).
await rm('dist', { recursive: true, force: true });
await build(serverBuildOptions({ production }));
