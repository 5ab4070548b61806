// The esbuild options of the server's bundles (build.mjs builds them; demo-seam.test.ts checks
// what they contain). Dependencies stay in node_modules; the workspace's own packages (TypeScript
// source) are bundled in.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@guquan/'));

/** What a production-only build puts where the demo module was: a refusal, never demo code. */
const NO_DEMO = `
const refuse = () => {
  throw new Error('This is a production-only build: it has no demo mode (npm run build makes one that has).');
};
export const demoMode = refuse;
export const demoSmsSender = refuse;
`;

/** Replaces every import of src/demo/ by NO_DEMO (the production-only build). */
const withoutDemo = {
  name: 'without-demo',
  setup(build) {
    build.onResolve({ filter: /(^|\/)demo\// }, (args) =>
      args.importer.includes('/src/demo/') ? undefined : { path: 'no-demo', namespace: 'no-demo' },
    );
    build.onLoad({ filter: /.*/, namespace: 'no-demo' }, () => ({
      contents: NO_DEMO,
      loader: 'js',
    }));
  },
};

/**
 * dist/server.js (the server), dist/migrate.js (`npm run migrate`, before the servers start),
 * dist/delete-accounts.js (the account deletion job), dist/platform-import.js (`npm run
 * platform:import`) and, unless `production`, dist/seed.js (`npm run seed`) and dist/stand-in.js
 * (the stand-in platform); dist/prerender.js writes the pages built ahead. The demo module is
 * imported dynamically (app-startup.ts), so with `splitting` it lands in a chunk of its own that a
 * production server never loads; a `production` build leaves it out altogether. The StoreKit
 * test chain is never bundled nor copied: demo mode reads it from src/demo/test-chain/
 * (demo/test-chain.ts).
 */
export function serverBuildOptions({ outdir = 'dist', production = false, absWorkingDir } = {}) {
  return {
    entryPoints: {
      server: 'src/server.ts',
      'delete-accounts': 'src/delete-accounts-cli.ts',
      migrate: 'src/migrate-cli.ts',
      // `npm run platform:import`: the platform's events from a file (docs/platform.md).
      'platform-import': 'src/platform-import-cli.ts',
      // Renders the website and the legal pages ahead (the last step of `npm run build`).
      prerender: 'src/prerender-cli.ts',
      // The stand-in platform, which a demo server without PLATFORM_* settings forks.
      ...(production ? {} : { seed: 'src/seed-cli.ts', 'stand-in': 'src/stand-in-cli.ts' }),
    },
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external,
    sourcemap: true,
    logLevel: 'info',
    absWorkingDir,
    plugins: production ? [withoutDemo] : [],
  };
}
