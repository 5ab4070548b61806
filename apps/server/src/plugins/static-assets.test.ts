import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { WEB_DIST_DIR } from '../test-support/build-paths.ts';
import { buildTestApp } from '../test-support/test-app.ts';

let app: FastifyInstance;
let entryScript: string;
beforeAll(async () => {
  app = await buildTestApp();
  const files = await readdir(join(WEB_DIST_DIR, 'client', 'assets'));
  const entry = files.find((file) => /^index-[\w-]+\.js$/.test(file));
  if (!entry) throw new Error('no entry script in the build');
  entryScript = `/anime_merch_web/assets/${entry}`;
});
afterAll(async () => {
  await app.close();
});

describe('static assets', () => {
  it('caches hashed assets for a year', async () => {
    const res = await app.inject({ url: entryScript });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('sends the pre-compressed brotli and gzip files', async () => {
    const br = await app.inject({ url: entryScript, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    const gzip = await app.inject({ url: entryScript, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({
      url: entryScript,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(br.headers['content-length'] ?? br.rawPayload.length)).toBeLessThan(
      plain.rawPayload.length,
    );
  });

  it('answers a missing asset with a JSON 404, not a page', async () => {
    const res = await app.inject({ url: '/anime_merch_web/assets/website-gone.js' });
    expect(res.statusCode).toBe(404);
    expect(apiErrorSchema.parse(res.json()).error.code).toBe('not_found');
  });

  it('never serves the raw template or the build manifest', async () => {
    for (const url of [
      '/anime_merch_web/index.html',
      '/anime_merch_web/assets/../index.html',
      '/anime_merch_web/assets/.vite/manifest.json',
      '/anime_merch_web/.vite/manifest.json',
    ]) {
      const res = await app.inject({ url });
      expect([403, 404], url).toContain(res.statusCode);
      expect(res.body, url).not.toContain('__CSP_NONCE__');
    }
  });
});
