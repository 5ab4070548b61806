import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { API_BASE_PATH, BASE_PATH } from '@guquan/contract/site-paths';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { installErrorHandling } from './error-handling.ts';

function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
}

describe('isDatabaseUnavailable', () => {
  it('knows a database that is away from a bug', () => {
    expect(isDatabaseUnavailable(refused())).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: refused() }))).toBe(true);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' })),
    ).toBe(false);
  });
});

describe('answers while the database is away', () => {
  async function appThatLostItsDatabase() {
    const app = Fastify();
    installErrorHandling(app);
    app.get(`${API_BASE_PATH}/things`, () => Promise.reject(refused()));
    app.get(`${BASE_PATH}/AppShare/goodsShare`, () => Promise.reject(refused()));
    app.get(`${API_BASE_PATH}/bug`, () => Promise.reject(new Error('a bug')));
    await app.ready();
    return app;
  }

  it('API: 503 in the error shape, with Retry-After', async () => {
    const app = await appThatLostItsDatabase();
    const res = await app.inject(`${API_BASE_PATH}/things`);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(apiErrorSchema.parse(res.json()).error.code).toBe('service_unavailable');
    // A real bug is still a 500.
    expect((await app.inject(`${API_BASE_PATH}/bug`)).statusCode).toBe(500);
  });

  it('pages: a friendly 503 page in HTML', async () => {
    const app = await appThatLostItsDatabase();
    const res = await app.inject(`${BASE_PATH}/AppShare/goodsShare?id=x`);
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('页面暂时无法访问');
    expect(res.body).not.toContain('ECONNREFUSED');
  });
});
