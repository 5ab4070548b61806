import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETION_PATH } from '@guquan/contract/account-deletion';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import { STAND_IN_ISSUER } from '../demo/stand-in-client.ts';
import { createRequest } from '../account-deletion/deletion-requests.ts';
import {
  buildTestAppWithDb,
  demoUserRowId,
  type TestAppWithDb,
} from '../test-support/design-test-app.ts';
import { standInToken } from '../test-support/test-app.ts';
import { makeTestKey, signTestToken } from '../test-support/test-jwks.ts';

/**
 * Who the user is (PRODUCT.md, "Who the user is"), through a real endpoint of the demo app and
 * the stand-in platform's tokens: the user must be in the site's copy and not deleted, and a
 * pending deletion request ends the tokens issued before it, unless the user logged in again.
 */
let t: TestAppWithDb;
beforeAll(async () => {
  t = await buildTestAppWithDb();
});
afterAll(() => t.close());

const nowS = () => Math.floor(Date.now() / 1000);

function overview(app: FastifyInstance, token: string) {
  return app.inject({ url: ACCOUNT_DELETION_PATH, headers: { authorization: `Bearer ${token}` } });
}

/** A deletion request of `user` confirmed at `confirmedAt`, still pending. */
async function pendingRequest(user: DemoUserKey, confirmedAt: Date): Promise<number> {
  const request = await createRequest(t.db, await demoUserRowId(t.db, user), confirmedAt);
  return request.id;
}

async function requestRow(id: number) {
  return t.db
    .selectFrom('account_deletion_requests')
    .select(['cancelled_at', 'cancel_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('the user of a token', () => {
  it('is a user of the site’s copy: a token the platform signed is enough', async () => {
    const response = await overview(t.app, await standInToken(t.app, DEMO_IDS.users.yuyuan));
    expect(response.statusCode).toBe(200);
  });

  it('refuses a user not received yet, with 401', async () => {
    const response = await overview(t.app, await standInToken(t.app, 'notReceivedYet01'));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('refuses a deleted user', async () => {
    const token = await standInToken(t.app, DEMO_IDS.users.beika);
    expect((await overview(t.app, token)).statusCode).toBe(200);
    await t.db
      .updateTable('users')
      .set({ deleted_at: new Date().toISOString() })
      .where('public_id', '=', DEMO_IDS.users.beika)
      .execute();
    expect((await overview(t.app, token)).statusCode).toBe(401);
  });

  it('refuses an expired token and one of a key the platform does not list', async () => {
    const user = DEMO_IDS.users.yuyuan;
    const expired = await standInToken(t.app, user, { issuedAt: nowS() - 2 * 3600 });
    expect((await overview(t.app, expired)).statusCode).toBe(401);
    const stranger = await makeTestKey('ES256');
    const unknown = await signTestToken(stranger, { sub: user, iss: STAND_IN_ISSUER });
    expect((await overview(t.app, unknown)).statusCode).toBe(401);
  });
});

describe('a pending deletion request', () => {
  it('ends the tokens issued before its confirmation, and keeps those issued after', async () => {
    const confirmedAt = new Date(Date.now() - 10_000);
    const loggedIn = nowS() - 60;
    const before = await standInToken(t.app, DEMO_IDS.users.chigu, {
      issuedAt: nowS() - 20,
      authTime: loggedIn,
    });
    const id = await pendingRequest('chigu', confirmedAt);
    expect((await overview(t.app, before)).statusCode).toBe(401);
    // The app's refreshed token: the same log-in, a later iat. The request stays.
    const refreshed = await standInToken(t.app, DEMO_IDS.users.chigu, { authTime: loggedIn });
    const response = await overview(t.app, refreshed);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ request: unknown }>().request).not.toBeNull();
    expect(await requestRow(id)).toEqual({ cancelled_at: null, cancel_reason: null });
  });

  it('is withdrawn by a token whose log-in came after the confirmation', async () => {
    const confirmedAt = new Date(Date.now() - 10_000);
    const id = await pendingRequest('conductor', confirmedAt);
    const old = await standInToken(t.app, DEMO_IDS.users.conductor, {
      issuedAt: nowS() - 20,
      authTime: nowS() - 20,
    });
    expect((await overview(t.app, old)).statusCode).toBe(401);
    const fresh = await standInToken(t.app, DEMO_IDS.users.conductor);
    const response = await overview(t.app, fresh);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ request: unknown }>().request).toBeNull();
    expect(await requestRow(id)).toMatchObject({ cancel_reason: 'login' });
    // The request gone, nothing ends the older tokens any more.
    expect((await overview(t.app, old)).statusCode).toBe(200);
  });
});
