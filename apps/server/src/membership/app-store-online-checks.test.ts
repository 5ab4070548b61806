import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MembershipResponse } from '@guquan/contract/membership';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { Db } from '../db/database.ts';
import { newPublicId } from '../db/public-id.ts';
import { createStoreKitSigner } from '../demo/storekit-signer.ts';
import { loadCertificateChain, TEST_CHAIN_DIR } from '../demo/test-chain.ts';
import { DAY_MS } from '../demo/test-storekit.ts';
import { STAND_IN_ISSUER } from '../demo/stand-in-client.ts';
import { startStandInPlatform, type StandInPlatform } from '../stand-in/stand-in-platform.ts';
import {
  buildTestApp,
  makeTempDataDir,
  PRODUCTION_APP_STORE_TEST_ENV,
} from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';

/**
 * A production server checks revocation online (OCSP). This chain's certificates name a
 * responder on a closed loopback port, as when Apple's OCSP cannot be reached: the purchase is
 * answered 503 and nothing is recorded, so the app keeps the transaction unfinished and sends it
 * again; a notification gets 503 too, so Apple sends it again.
 */
const OCSP_DOWN_DIR = `${TEST_CHAIN_DIR}/ocsp-unreachable`;
const signer = createStoreKitSigner(loadCertificateChain(OCSP_DOWN_DIR), {
  bundleId: PRODUCTION_APP_STORE_TEST_ENV.APPLE_BUNDLE_ID,
  environment: 'Production',
  appAppleId: Number(PRODUCTION_APP_STORE_TEST_ENV.APPLE_APP_APPLE_ID),
});

let app: FastifyInstance;
let db: Db;
let temp: { dataDir: string; remove: () => Promise<void> };
let authorization: string;
let token: string;
let platform: StandInPlatform;

beforeAll(async () => {
  temp = await makeTempDataDir();
  // Production has no demo log-in: the user's token signed by a platform (the stand-in here).
  platform = await startStandInPlatform({ dataDir: temp.dataDir });
  app = await buildTestApp({
    APP_MODE: 'production',
    PUBLIC_ORIGIN: 'https://www.example.com',
    DATA_DIR: temp.dataDir,
    APPLE_ROOT_CERTS_DIR: OCSP_DOWN_DIR,
    ...platform.env,
  });
  db = await openTestDataDirDatabase(temp.dataDir);
  const user = await db
    .insertInto('users')
    .values({
      public_id: newPublicId(),
      nickname: '买家',
      avatar_image_id: null,
      created_at: new Date().toISOString(),
    })
    .returning(['id', 'public_id as publicId'])
    .executeTakeFirstOrThrow();
  const signed = await platform.keys.sign(STAND_IN_ISSUER, { userId: user.publicId });
  authorization = `Bearer ${signed.token}`;
  const overview = await app.inject({
    url: `${API_BASE_PATH}/membership`,
    headers: { authorization },
  });
  token = overview.json<MembershipResponse>().appAccountToken;
});
afterAll(async () => {
  await db.destroy();
  await app.close();
  await platform.close();
  await temp.remove();
});

function signed() {
  return signer.transaction({
    productId: 'vip.monthly',
    appAccountToken: token,
    purchaseDate: Date.now(),
    expiresDate: Date.now() + 30 * DAY_MS,
  });
}

describe("when Apple's OCSP cannot be reached", () => {
  it('answers a purchase 503 verification_unavailable and records nothing', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${API_BASE_PATH}/membership/transactions`,
      headers: { authorization },
      payload: { signedTransaction: signed().signedTransaction },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: {
        code: 'verification_unavailable',
        message: expect.any(String) as string,
        requestId: expect.any(String) as string,
      },
    });
    expect(await db.selectFrom('app_store_transactions').selectAll().execute()).toEqual([]);
  });

  it('names the transaction in a restore as verification_unavailable', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${API_BASE_PATH}/membership/restore`,
      headers: { authorization },
      payload: { signedTransactions: [signed().signedTransaction] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      accepted: [],
      rejected: [{ index: 0, code: 'verification_unavailable' }],
    });
  });

  it('answers a notification 503, so Apple sends it again', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${API_BASE_PATH}/app-store/notifications`,
      payload: {
        signedPayload: signer.notification({
          notificationType: 'DID_RENEW',
          notificationUUID: randomUUID(),
          signedTransactionInfo: signed().signedTransaction,
        }),
      },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: { code: 'verification_unavailable' } });
  });
});
