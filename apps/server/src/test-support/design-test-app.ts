import type { FastifyInstance } from 'fastify';
import { dataPaths } from '../config/data-paths.ts';
import type { Db } from '../db/database.ts';
import { loadPhoneProtection } from '../crypto/phone-keys.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { SmsSender } from '../account-deletion/sms-sender.ts';
import type { WebBuild } from '../pages/web-build.ts';
import { buildTestApp, makeTempDataDir, standInOf } from './test-app.ts';
import { openTestDataDirDatabase } from './test-engine.ts';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { redemptionsApiPath } from '@guquan/contract/design';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';

export interface TestAppWithDb {
  app: FastifyInstance;
  /** A second connection to the app's database, to look at balances, the ledger, or the clock. */
  db: Db;
  /** The app's phone keys (demo mode's, kept in its data directory). */
  phones: PhoneProtection;
  dataDir: string;
  close: () => Promise<void>;
}

/**
 * For tests of what concurrent redemptions come to (one 201, the rest 200 or 409): the request
 * waits for the platform 10 s instead of 1.5 s, so a slow machine's debits still answer within
 * the request and the codes depend on the races tested, never on the machine's speed. How long
 * the shipped request waits is redemption-answer-time.test.ts's.
 */
export const PATIENT_REDEMPTIONS = { redemptionAnswerWithinMs: 10_000 } as const;

/** The real app on a data directory of its own, and a look into its database. */
export async function buildTestAppWithDb(
  overrides: { smsSender?: SmsSender; webBuild?: WebBuild; redemptionAnswerWithinMs?: number } = {},
): Promise<TestAppWithDb> {
  const temp = await makeTempDataDir();
  const app = await buildTestApp({ DATA_DIR: temp.dataDir }, overrides);
  const paths = dataPaths(temp.dataDir);
  const db = await openTestDataDirDatabase(temp.dataDir);
  return {
    app,
    db,
    phones: await loadPhoneProtection(null, paths.phoneKey),
    dataDir: temp.dataDir,
    close: async () => {
      await db.destroy();
      await app.close();
      await temp.remove();
    },
  };
}

/** A session of a demo user, as the bridge simulator gets one. */
export async function logIn(app: FastifyInstance, user: DemoUserKey): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}/demo/sessions`,
    payload: { userId: DEMO_IDS.users[user] },
  });
  if (response.statusCode !== 201) throw new Error(`log-in failed: ${response.statusCode}`);
  return response.json<{ token: string }>().token;
}

/** The row id of a demo user in the site's database (never sent out: tests look with it). */
export async function demoUserRowId(db: Db, user: DemoUserKey): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('public_id', '=', DEMO_IDS.users[user])
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface PointsState {
  /** users.points: the platform's balance as the site last heard it. */
  balance: number;
  /** Redeemed (charged by the platform). */
  redemptions: number;
  redeemedPriceSum: number;
  pending: number;
  refused: number;
  /** The balance the platform answered to the latest charged redemption. */
  lastBalanceAfter: number | null;
}

/** A user's points and redemptions as the site's database has them. */
export async function pointsOf(db: Db, user: DemoUserKey): Promise<PointsState> {
  const { id, points } = await db
    .selectFrom('users')
    .select(['id', 'points'])
    .where('public_id', '=', DEMO_IDS.users[user])
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('redemptions')
    .select(['state', 'price_points', 'balance_after'])
    .where('user_id', '=', id)
    .orderBy('completed_at')
    .orderBy('id')
    .execute();
  const redeemed = rows.filter((row) => row.state === 'redeemed');
  return {
    balance: points,
    redemptions: redeemed.length,
    redeemedPriceSum: redeemed.reduce((sum, row) => sum + row.price_points, 0),
    pending: rows.filter((row) => row.state === 'pending').length,
    refused: rows.filter((row) => row.state === 'refused').length,
    lastBalanceAfter: redeemed.at(-1)?.balance_after ?? null,
  };
}

export interface PlatformCharges {
  /** The stand-in ledger's balance of the user. */
  balance: number;
  /** Debits it charged the user, and their sum. */
  charged: number;
  chargedSum: number;
  /** Debits it refused (insufficient points). */
  refused: number;
}

/** What the stand-in platform's ledger holds of a user: what was really spent. */
export function chargesOf(app: FastifyInstance, user: DemoUserKey): PlatformCharges {
  const { ledger } = standInOf(app);
  const userId = DEMO_IDS.users[user];
  const mine = ledger.debits().filter((debit) => debit.userId === userId);
  const charged = mine.filter((debit) => debit.outcome === 'charged');
  return {
    balance: ledger.balanceOf(userId),
    charged: charged.length,
    chargedSum: charged.reduce((sum, debit) => sum + debit.points, 0),
    refused: mine.length - charged.length,
  };
}

/** A redemption of `designId` asked for by the holder of `token`, with its Idempotency-Key. */
export function redeem(app: FastifyInstance, token: string, designId: string, key: string) {
  return app.inject({
    method: 'POST',
    url: redemptionsApiPath(designId),
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
  });
}
