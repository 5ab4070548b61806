import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { inlineCodeOf } from './page-csp.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function sources(csp: string, directive: string): string[] {
  const part = csp.split(';').find((entry) => entry.trim().startsWith(`${directive} `));
  return part?.trim().split(/\s+/).slice(1) ?? [];
}

describe('each page allows exactly its own inline code', () => {
  it.each([
    `${BASE_PATH}/website`,
    `${BASE_PATH}/agreement/yiSi/YiSiAgreement?lang=en`,
    `${BASE_PATH}/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}`,
    `${BASE_PATH}/AppShare/cabinetShare?id=${DEMO_IDS.cabinets.private}`,
    `${BASE_PATH}/APPPage/logOut`,
    `${BASE_PATH}/no/such/page`,
  ])('%s', async (url) => {
    const res = await app.inject({ url });
    const csp = String(res.headers['content-security-policy']);
    // Parsed by a browser's rules, hashed here: the policy lists these hashes and no others.
    const { document } = new JSDOM(res.body).window;
    const scripts = [...document.querySelectorAll('script')];
    const executable = scripts.filter(
      (script) => !script.src && script.type !== 'application/json',
    );
    expect(executable.length).toBeGreaterThan(0);
    expect(scripts.some((script) => script.type === 'application/json')).toBe(true);
    const scriptHashes = sources(csp, 'script-src').filter((source) => source.startsWith("'sha"));
    expect(scriptHashes.sort()).toEqual(executable.map((s) => hash(s.textContent)).sort());
    const styles = [...document.querySelectorAll('style')];
    const styleHashes = sources(csp, 'style-src').filter((source) => source.startsWith("'sha"));
    expect(styleHashes.sort()).toEqual(styles.map((s) => hash(s.textContent)).sort());
    expect(csp).not.toMatch(/unsafe-inline|nonce-/);
    expect(res.body).not.toMatch(/ nonce=/);
  });
});

describe('inlineCodeOf', () => {
  it('finds inline scripts and styles, and leaves out data blocks and external scripts', () => {
    const code = inlineCodeOf(
      '<style>a{}</style><script type="application/json" id="d">{"a":1}</script>' +
        '<script type="module" src="/x.js"></script><script type="module">go()</script>',
    );
    expect(code).toEqual({ scripts: ['go()'], styles: ['a{}'] });
  });
});
