import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';

const DEMO_USERS = DEMO_IDS.users;
import { buildTestApp, TEST_SMS_ENV } from '../test-support/test-app.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

function login(userId: string) {
  return app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/demo/sessions`,
    payload: { userId },
  });
}

function logout(authorization?: string) {
  return app.inject({
    method: 'DELETE',
    url: `${API_BASE_PATH}/sessions/current`,
    headers: authorization ? { authorization } : {},
  });
}

describe('demo log-in and sessions', () => {
  it('lists the demo users and logs one in', async () => {
    const users = await app.inject({ url: `${API_BASE_PATH}/demo/users` });
    expect(users.statusCode).toBe(200);
    const ids = users.json<{ users: { id: string }[] }>().users.map((user) => user.id);
    expect(ids).toContain(DEMO_USERS.yuyuan);

    const response = await login(DEMO_USERS.yuyuan);
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const session = response.json<{ token: string; userId: string }>();
    expect(session.userId).toBe(DEMO_USERS.yuyuan);

    expect((await logout(`Bearer ${session.token}`)).statusCode).toBe(204);
    // The same token no longer works.
    const again = await logout(`Bearer ${session.token}`);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({
      error: {
        code: 'unauthorized',
        message: expect.any(String) as string,
        requestId: expect.any(String) as string,
      },
    });
  });

  it.each([
    ['no header', undefined],
    ['a forged token', `Bearer ${'x'.repeat(43)}`],
    ['a malformed token', 'Bearer short'],
    ['another scheme', `Basic ${'x'.repeat(43)}`],
    ['a token in two parts', `Bearer ${'x'.repeat(43)} extra`],
  ])('answers 401 to %s', async (_name, authorization) => {
    const response = await logout(authorization);
    expect(response.statusCode).toBe(401);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('unauthorized');
  });

  it('refuses an unknown user, a malformed id, extra fields and a huge body', async () => {
    expect((await login('BmsOP1ywckU0CmUx')).statusCode).toBe(404);
    expect((await login('no.pe')).statusCode).toBe(400);
    const extra = await app.inject({
      method: 'POST',
      url: `${API_BASE_PATH}/demo/sessions`,
      payload: { userId: DEMO_USERS.yuyuan, admin: true },
    });
    expect(extra.statusCode).toBe(400);
    const huge = await app.inject({
      method: 'POST',
      url: `${API_BASE_PATH}/demo/sessions`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ userId: 'x'.repeat(200_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(await app.inject({ url: `${API_BASE_PATH}/demo/users` }).then((r) => r.statusCode)).toBe(
      200,
    );
  });
});

describe('in production mode', () => {
  it('has no demo log-in at all', async () => {
    const production = await buildTestApp({
      APP_MODE: 'production',
      PUBLIC_ORIGIN: 'https://www.example.com',
      ...TEST_SMS_ENV,
    });
    try {
      const users = await production.inject({ url: `${API_BASE_PATH}/demo/users` });
      expect(users.statusCode).toBe(404);
      const session = await production.inject({
        method: 'POST',
        url: `${API_BASE_PATH}/demo/sessions`,
        payload: { userId: DEMO_USERS.yuyuan },
      });
      expect(session.statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
