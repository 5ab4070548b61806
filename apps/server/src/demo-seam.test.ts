import { build } from 'esbuild';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverBuildOptions } from '../build-config.mjs';
import { buildTestApp } from './test-support/test-app.ts';

/**
 * The demo stays behind its seam (demo/demo-mode.ts): a production server never loads it, and the
 * bundle a production server runs holds neither demo code nor the StoreKit test key.
 */
const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * Signs of demo code in a bundle: the test key, and the demo's functions by name (the bundles are
 * not minified). The contract's path constants of the demo routes are mere strings: not counted.
 */
const DEMO_MARKS = [
  'PRIVATE KEY',
  'function demoMode(',
  'demoRoutes',
  'demoStoreKitRoutes',
  'demoSmsRoutes',
  'loadCertificateChain',
  'createStoreKitSigner',
  'seedDemoData',
  'drawDemoPicture',
];

/** A bundle's file and every chunk it imports statically, transitively: what it loads at start. */
async function staticClosure(dir: string, entry: string): Promise<Map<string, string>> {
  const loaded = new Map<string, string>();
  const pending = [entry];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (loaded.has(name)) continue;
    const code = await readFile(join(dir, name), 'utf8');
    loaded.set(name, code);
    for (const match of code.matchAll(/^\s*(?:import|export)\b[^;]*?from\s*"\.\/([^"]+)"/gm)) {
      pending.push(match[1] ?? '');
    }
    for (const match of code.matchAll(/^import\s*"\.\/([^"]+)"/gm)) pending.push(match[1] ?? '');
  }
  return loaded;
}

async function buildInto(production: boolean): Promise<{ dir: string; files: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'guquan-server-build-'));
  await build({
    ...serverBuildOptions({ outdir: dir, production, absWorkingDir: SERVER_DIR }),
    logLevel: 'silent',
    sourcemap: false,
  });
  return { dir, files: await readdir(dir, { recursive: true }) };
}

describe('the server bundle', () => {
  let demoBuild: { dir: string; files: string[] };
  let productionBuild: { dir: string; files: string[] };

  beforeAll(async () => {
    [demoBuild, productionBuild] = await Promise.all([buildInto(false), buildInto(true)]);
  });

  afterAll(async () => {
    await rm(demoBuild.dir, { recursive: true, force: true });
    await rm(productionBuild.dir, { recursive: true, force: true });
  });

  it('starts without demo code or the test key: the demo is a chunk of its own', async () => {
    const loaded = await staticClosure(demoBuild.dir, 'server.js');
    expect(loaded.size).toBeGreaterThan(1);
    for (const [name, code] of loaded) {
      for (const mark of DEMO_MARKS) {
        expect(code.includes(mark), `${name} holds ${mark}`).toBe(false);
      }
    }
    const demoChunk = demoBuild.files.find((name) => /^demo-mode-.+\.js$/.test(name));
    expect(demoChunk).toBeDefined();
    const demoCode = await readFile(join(demoBuild.dir, demoChunk ?? ''), 'utf8');
    expect(demoCode).toContain('demoStoreKitRoutes');
    // Not even the demo chunk holds the key: it is read from src/demo/test-chain/ at run time.
    expect(demoCode).not.toContain('PRIVATE KEY');
  });

  it('never copies the test chain next to the bundle', () => {
    expect(demoBuild.files.filter((name) => /\.pem$|test-chain/.test(name))).toEqual([]);
  });

  it('leaves the demo out altogether in a production-only build', async () => {
    expect(productionBuild.files.filter((name) => /demo-mode|seed|\.pem$/.test(name))).toEqual([]);
    for (const name of productionBuild.files.filter((file) => file.endsWith('.js'))) {
      const code = await readFile(join(productionBuild.dir, name), 'utf8');
      for (const mark of DEMO_MARKS) {
        expect(code.includes(mark), `${name} holds ${mark}`).toBe(false);
      }
    }
  });
});

const demoModuleLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./demo/demo-mode.ts', async (importOriginal) => {
  demoModuleLoads.count += 1;
  return importOriginal();
});

describe('the demo module', () => {
  it('is never imported by a production server, and is by a demo server', async () => {
    const production = await buildTestApp({
      APP_MODE: 'production',
      PUBLIC_ORIGIN: 'https://www.example.com',
    });
    const api = '/anime_merch_web/api/v1';
    expect((await production.inject({ method: 'GET', url: `${api}/demo/users` })).statusCode).toBe(
      404,
    );
    await production.close();
    expect(demoModuleLoads.count).toBe(0);

    const demo = await buildTestApp();
    expect((await demo.inject({ method: 'GET', url: `${api}/demo/users` })).statusCode).toBe(200);
    await demo.close();
    expect(demoModuleLoads.count).toBe(1);
  });
});
