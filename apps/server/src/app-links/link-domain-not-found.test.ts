import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { buildTestApp } from '../test-support/test-app.ts';

/** The link domain's 404: the site's look, the visitor's language, a strict policy. */
const SITE = 'http://127.0.0.1:8080';
const LINK = 'link.test';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ PUBLIC_ORIGIN: SITE, LINK_ORIGIN: `http://${LINK}` });
});
afterAll(async () => {
  await app.close();
});

function onLink(url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers: { host: LINK, ...headers } });
}

function styleOf(html: string): string {
  return /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
}

describe('the link domain’s not-found page', () => {
  it('speaks the visitor’s language (Accept-Language), with the way to the website in it', async () => {
    const response = await onLink('/no/such/link', { 'accept-language': 'en-GB,en;q=0.9' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers.vary).toMatch(/Accept-Language/i);
    expect(response.body).toContain('<html lang="en">');
    expect(response.body).toContain('<h1>Page not found</h1>');
    expect(response.body).toContain(`href="${SITE}${BASE_PATH}/website?lang=en"`);
    expect(response.body).toContain('href="/no/such/link?lang=zh-CN" lang="zh-CN"');
    expect(response.body).toContain('noindex');
  });

  it('is Chinese by default, and ?lang= chooses over Accept-Language', async () => {
    const chinese = await onLink('/goods');
    expect(chinese.body).toContain('<html lang="zh-CN">');
    expect(chinese.body).toContain('<h1>页面不存在</h1>');
    const english = await onLink('/goods?lang=en', { 'accept-language': 'zh-CN' });
    expect(english.body).toContain('<h1>Page not found</h1>');
    expect(english.body).toContain('href="/goods?lang=zh-CN"');
  });

  it('has the site’s look, allowed by its style’s hash and nothing inline besides', async () => {
    const response = await onLink('/users/abc', { 'accept-language': 'en' });
    const css = styleOf(response.body);
    expect(css).toContain('#d6245a');
    // Latin text in a Latin font first on the English page.
    expect(css).toMatch(/font-family:'DejaVu Sans'/);
    const hash = `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
    const policy = String(response.headers['content-security-policy']);
    const styleSrc = /(?:^|;)style-src ([^;]*)/.exec(policy)?.[1] ?? '';
    expect(styleSrc.split(' ')).toEqual(["'self'", hash]);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toMatch(/(?:^|;)script-src 'self'(?:;|$)/);
    expect(response.body).not.toMatch(/<script|style="/);
  });

  it('escapes the address it links back to', async () => {
    const response = await onLink('/x"><script>?a=<b>');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<script>');
    expect(response.body).toContain('href="/x%22%3E%3Cscript%3E?a=%3Cb%3E&amp;lang=en"');
  });
});
