import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-app.ts';
import { listenAlsoOn } from './extra-listener.ts';

function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a second listener for the same app (demo mode’s link domain on PORT + 1)', () => {
  it('answers with the app’s own routes and hooks, and closes', async () => {
    const app = await buildTestApp({ LINK_ORIGIN: 'http://link.test' });
    const extra = await listenAlsoOn(app, { host: '127.0.0.1', port: 0 });
    try {
      const { port } = extra.server.address() as AddressInfo;
      const aasa = await get(port, '/.well-known/apple-app-site-association', 'link.test');
      expect(aasa.status).toBe(200);
      expect(JSON.parse(aasa.body)).toHaveProperty('applinks');
      // Another Host on the same listener is the site.
      expect((await get(port, '/anime_merch_web/api/v1/health', '127.0.0.1')).status).toBe(200);
    } finally {
      await extra.close();
      await app.close();
    }
    expect(extra.server.listening).toBe(false);
  });
});
