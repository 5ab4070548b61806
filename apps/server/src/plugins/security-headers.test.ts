import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_SMS_ENV } from '../test-support/test-app.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers', () => {
  it('sends a strict Content-Security-Policy without nonces or unsafe-inline', async () => {
    const first = await app.inject({ url: '/anime_merch_web/website' });
    const csp = directives(first.headers['content-security-policy']);
    const scriptSrc = csp.get('script-src') ?? [];
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc.join(' ')).not.toMatch(/unsafe-inline|unsafe-eval|\*|nonce-/);
    // Inline code is allowed by hash (see pages/page-csp.test.ts); the router's data is a JSON
    // block that never runs.
    expect(scriptSrc.some((source) => source.startsWith("'sha256-"))).toBe(true);
    expect(first.body).toContain('<script type="application/json" id="app-hydration">');
    expect(first.body).toContain('<script type="module">');
    expect(first.body).not.toMatch(/nonce=|__CSP_NONCE__|csp-nonce/);
    const styleSrc = csp.get('style-src')?.join(' ') ?? '';
    expect(styleSrc).not.toMatch(/unsafe-inline|nonce-/);
    expect(first.body).toContain('<style>');
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);

    // The same page, the same policy: it can be cached with the page.
    const second = await app.inject({ url: '/anime_merch_web/website' });
    expect(second.headers['content-security-policy']).toBe(
      first.headers['content-security-policy'],
    );
    // Answers that are not pages carry the site's policy as it is.
    const api = await app.inject({ url: '/anime_merch_web/api/v1/health' });
    expect(String(api.headers['content-security-policy'])).not.toMatch(/sha256-|nonce-/);
  });

  it.each([
    '/anime_merch_web/website',
    '/anime_merch_web/nope',
    '/anime_merch_web/api/v1/health',
    '/anime_merch_web/api/v1/nope',
  ])('sends the other protective headers on %s', async (url) => {
    const res = await app.inject({ url });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['permissions-policy']).toMatch(/camera=\(\)/);
    expect(res.headers['permissions-policy']).toMatch(/geolocation=\(\)/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('adds HSTS and upgrade-insecure-requests only in production', async () => {
    const demo = await app.inject({ url: '/anime_merch_web/website' });
    expect(demo.headers['strict-transport-security']).toBeUndefined();
    const production = await buildTestApp({
      APP_MODE: 'production',
      PUBLIC_ORIGIN: 'https://guquan.example',
      ...TEST_SMS_ENV,
    });
    try {
      const res = await production.inject({ url: '/anime_merch_web/website' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await production.close();
    }
  });
});
