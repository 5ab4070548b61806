import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { APP_LINK_HANDOFFS_PATH } from '@guquan/contract/app-link-paths';
import { HANDOFF_LIMITS } from '../app-links/handoff-routes.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { parseTrustProxy } from './trust-proxy.ts';

describe('parseTrustProxy', () => {
  it('takes nothing, or addresses and networks', () => {
    expect(parseTrustProxy(undefined)).toEqual({ ok: true, value: false });
    expect(parseTrustProxy('false')).toEqual({ ok: true, value: false });
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8')).toEqual({
      ok: true,
      value: ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'],
    });
  });

  it('refuses "trust everything" and says what to give instead', () => {
    const result = parseTrustProxy('true');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(/every hop[\s\S]*addresses or networks/);
  });

  it('refuses a hop count, which cannot tell a proxy from a client', () => {
    const result = parseTrustProxy('1');
    expect(!result.ok && result.problem).toMatch(/hop count[\s\S]*addresses or networks/);
  });

  it('refuses what is not an address or network', () => {
    for (const value of ['loopback', '10.0.0.0/33', '10.0.0', '1.2.3.4/8/8', '99']) {
      expect(parseTrustProxy(value).ok, value).toBe(false);
    }
  });
});

describe('client addresses behind one trusted proxy', () => {
  const apps: FastifyInstance[] = [];
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  /** A share page's handoff codes: 20 a minute per address (handoff-routes.ts). */
  const LIMIT = HANDOFF_LIMITS.mintsPerClientPerMinute;

  /** 30 handoff codes asked by one real client, each forging a different left-most address. */
  async function forgedMints(app: FastifyInstance, client: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: APP_LINK_HANDOFFS_PATH,
        // The proxy (on loopback) appended the address it saw; the client wrote the rest.
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${i}, ${client}` },
        payload: { target: { kind: 'goods', id: DEMO_IDS.goods.gallery } },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  }

  it.each([
    ['its address', '127.0.0.1'],
    ['its network', '127.0.0.0/8,::1'],
  ])(
    'keys the rate limit on the real client, given the proxy by %s',
    async (_name, trustProxy) => {
      const app = await buildTestApp({ TRUST_PROXY: trustProxy });
      apps.push(app);
      const statuses = await forgedMints(app, '203.0.113.7');
      expect(statuses.slice(0, LIMIT).every((status) => status === 201)).toBe(true);
      expect(statuses.slice(LIMIT).every((status) => status === 429)).toBe(true);
      // Another client behind the same proxy is not limited by the first one's requests.
      expect((await forgedMints(app, '203.0.113.8'))[0]).toBe(201);
      // A seeded app and 60 requests: more than the default 5 s on a busy 2-core machine.
    },
    30_000,
  );
});
