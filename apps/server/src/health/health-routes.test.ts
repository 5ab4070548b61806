import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { healthResponseSchema } from '@guquan/contract/health';
import { buildTestApp } from '../test-support/test-app.ts';
import { API_VERSION } from '../plugins/openapi.ts';
import { listenOnLoopback } from '../test-support/raw-http.ts';
import packageJson from '../../package.json' with { type: 'json' };

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

describe('API', () => {
  it('reports health, and nothing else: no version, no uptime', async () => {
    const res = await app.inject({ url: '/anime_merch_web/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(healthResponseSchema.parse(res.json()).status).toBe('ok');
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it("describes the API's version in OpenAPI, not the server's", async () => {
    const res = await app.inject({ url: '/anime_merch_web/api/v1/openapi.json' });
    expect(res.json<{ info: { version: string } }>().info.version).toBe(API_VERSION);
  });

  it('answers unknown endpoints in the one error shape', async () => {
    for (const [method, url] of [
      ['GET', '/anime_merch_web/api/v1/nope'],
      ['POST', '/anime_merch_web/api/v1/health'],
      ['DELETE', '/anime_merch_web/api/v2/anything'],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(apiErrorSchema.parse(res.json()).error.code).toBe('not_found');
    }
  });

  it('refuses a body over the limit without reading it', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/anime_merch_web/api/v1/nope',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ blob: 'x'.repeat(200 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(apiErrorSchema.parse(res.json()).error.code).toBe('payload_too_large');
  });
});

describe('the version, for operators', () => {
  it('is logged when the server starts listening', async () => {
    const lines: string[] = [];
    const logged = await buildTestApp(
      { LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      await listenOnLoopback(logged);
      const started = lines
        .map((line) => JSON.parse(line) as { msg: string; version?: string; build?: string })
        .find((line) => line.msg === 'serving this version');
      expect(started?.version).toBe(packageJson.version);
      expect(started?.build).toMatch(/^[\w-]{8,}$/);
    } finally {
      await logged.close();
    }
    // A server of its own, seeded: seconds on a loaded machine.
  });
});
