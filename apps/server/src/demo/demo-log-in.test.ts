import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETION_PATH } from '@guquan/contract/account-deletion';
import { DEMO_SESSIONS_PATH, sessionSchema } from '@guquan/contract/session';
import { buildTestApp, standInOf } from '../test-support/test-app.ts';
import type { FastifyInstance } from 'fastify';
import { DEMO_IDS } from './seed/demo-ids.ts';

/**
 * The demo log-in keeps its path and shape, and answers a token the stand-in platform signed (at
 * PLATFORM_API_URL), as the app gets one from the platform.
 */
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

const logIn = (payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: DEMO_SESSIONS_PATH, payload });

describe('the demo log-in', () => {
  it('answers 201 { token, userId, expiresAt }: the platform’s token, which the site accepts', async () => {
    const response = await logIn({ userId: DEMO_IDS.users.satoru });
    expect(response.statusCode).toBe(201);
    const session = sessionSchema.parse(response.json());
    expect(session.userId).toBe(DEMO_IDS.users.satoru);
    const claims = decodeJwt(session.token);
    expect(claims).toMatchObject({ sub: DEMO_IDS.users.satoru, aud: 'guquan-web' });
    expect(new Date((claims.exp ?? 0) * 1000).toISOString()).toBe(session.expiresAt);
    const overview = await app.inject({
      url: ACCOUNT_DELETION_PATH,
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(overview.statusCode).toBe(200);
  });

  it('refreshes a log-in: the same auth_time, issued now', async () => {
    const authTime = Math.floor(Date.now() / 1000) - 600;
    const response = await logIn({ userId: DEMO_IDS.users.satoru, authTime });
    const claims = decodeJwt(sessionSchema.parse(response.json()).token);
    expect(claims.auth_time).toBe(authTime);
    expect(claims.iat).toBeGreaterThan(authTime);
  });

  it('answers 404 for a user the site does not have, and 400 for a bad body', async () => {
    expect((await logIn({ userId: 'noSuchDemoUser01' })).statusCode).toBe(404);
    expect((await logIn({ userId: DEMO_IDS.users.satoru, authTime: 'x' })).statusCode).toBe(400);
  });

  it('refreshes a token for every page load a tester makes: 120 in a minute from one address', async () => {
    const statuses = new Set<number>();
    for (let load = 0; load < 120; load += 1) {
      statuses.add((await logIn({ userId: DEMO_IDS.users.satoru })).statusCode);
    }
    expect([...statuses]).toEqual([201]);
  });

  it('answers 502 when the platform signs nothing', async () => {
    await standInOf(app).close();
    const response = await logIn({ userId: DEMO_IDS.users.satoru });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ error: { code: 'platform_unavailable' } });
  });
});
