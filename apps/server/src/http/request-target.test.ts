import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { listenOnLoopback, rawExchange } from '../test-support/raw-http.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { originForm, requestHost } from './request-target.ts';

/**
 * Request targets in the absolute form (`GET http://x/anime_merch_web/website HTTP/1.1`), sent
 * straight to a server over a raw socket as the audit did: answered as their path, never 500,
 * and no error in the log.
 */
let app: FastifyInstance;
let port: number;
const logLines: string[] = [];
beforeAll(async () => {
  app = await buildTestApp(
    { LOG_LEVEL: 'warn' },
    { logStream: { write: (line) => void logLines.push(line) } },
  );
  port = await listenOnLoopback(app);
});
afterAll(() => app.close());

async function statusOf(target: string): Promise<{ status: number; head: string; body: string }> {
  const answer = await rawExchange(
    port,
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
  );
  const [head = '', body = ''] = answer.text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body };
}

describe('absolute-form request targets', () => {
  it('are answered as their path: the same status and page as the origin form', async () => {
    const share = `${BASE_PATH}/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&lang=en`;
    for (const [absolute, path] of [
      [`http://x${BASE_PATH}/website`, `${BASE_PATH}/website`],
      [`HTTP://X:8080${share}`, share],
      [`https://user@example.com${API_BASE_PATH}/health`, `${API_BASE_PATH}/health`],
      [`http://x${BASE_PATH}/no-such-page`, `${BASE_PATH}/no-such-page`],
      // Whatever the scheme, as nginx reads it.
      [`ftp://x${BASE_PATH}/website`, `${BASE_PATH}/website`],
      [
        `http://x${API_BASE_PATH}/goods/${DEMO_IDS.goods.private}`,
        `${API_BASE_PATH}/goods/${DEMO_IDS.goods.private}`,
      ],
      ['http://x', '/'],
      ['http://x?lang=en', '/?lang=en'],
    ] as const) {
      const viaAbsolute = await statusOf(absolute);
      const viaPath = await statusOf(path);
      expect(viaAbsolute.status, absolute).toBe(viaPath.status);
      expect(viaAbsolute.status, absolute).not.toBe(500);
      expect(/^location: .*$/im.exec(viaAbsolute.head)?.[0], absolute).toBe(
        /^location: .*$/im.exec(viaPath.head)?.[0],
      );
      expect(viaAbsolute.body.length, absolute).toBe(viaPath.body.length);
    }
    expect((await statusOf(`http://x${BASE_PATH}/website`)).status).toBe(200);
  });

  it('leaves other targets to the router: never a 500', async () => {
    for (const target of ['*', `x:${BASE_PATH}/website`, `//x${BASE_PATH}/website`]) {
      const { status } = await statusOf(target);
      expect(status, target).toBeGreaterThanOrEqual(200);
      expect(status, target).toBeLessThan(500);
    }
  });

  it('logs no error for any of them', () => {
    const errors = logLines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });
});

describe('originForm', () => {
  it('keeps the path and query of an absolute URL, and leaves the rest as it is', () => {
    expect(originForm('/anime_merch_web/website?lang=en')).toBe('/anime_merch_web/website?lang=en');
    expect(originForm('http://x/anime_merch_web/website')).toBe('/anime_merch_web/website');
    expect(originForm('https://a:b@x:443/p?q=1')).toBe('/p?q=1');
    expect(originForm('http://x?lang=en')).toBe('/?lang=en');
    expect(originForm('http://x')).toBe('/');
    expect(originForm('ftp://x/p')).toBe('/p');
    expect(originForm('*')).toBe('*');
    expect(originForm('//x/p')).toBe('//x/p');
  });
});

describe('requestHost', () => {
  it('is the Host header’s, read as nginx reads it: lower case, no trailing dot, the port apart', () => {
    expect(requestHost('/p', 'Link.Test.:80')).toEqual({ name: 'link.test', port: '80' });
    expect(requestHost('/p', 'link.test')).toEqual({ name: 'link.test', port: '' });
    expect(requestHost('/p', '[::1]:8080')).toEqual({ name: '[::1]', port: '8080' });
    for (const none of [undefined, '', ' ', '.', ':80', 'a/b', 'a\\b'])
      expect(requestHost('/p', none), String(none)).toBeUndefined();
  });

  it('is an absolute-form target’s host, whatever the Host header says', () => {
    expect(requestHost('http://WWW.Example.COM./p?q', 'link.test')).toEqual({
      name: 'www.example.com',
      port: '',
    });
    expect(requestHost('HTTPS://user:pw@link.test:8443', 'www.example.com')).toEqual({
      name: 'link.test',
      port: '8443',
    });
    expect(requestHost('ftp://link.test/p', undefined)).toEqual({ name: 'link.test', port: '' });
    expect(requestHost('http:///p', 'link.test')).toBeUndefined();
    expect(requestHost('*', 'link.test')).toEqual({ name: 'link.test', port: '' });
  });
});
