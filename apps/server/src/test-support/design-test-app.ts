import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { dataPaths } from '../config/data-paths.ts';
import type { Db } from '../db/database.ts';
import { loadPhoneProtection } from '../crypto/phone-keys.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { SmsSender } from '../account-deletion/sms-sender.ts';
import type { WebBuild } from '../pages/web-build.ts';
import { buildTestApp, makeTempDataDir } from './test-app.ts';
import { openTestDataDirDatabase } from './test-engine.ts';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
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

/** The real app on a data directory of its own, and a look into its database. */
export async function buildTestAppWithDb(
  overrides: { smsSender?: SmsSender; webBuild?: WebBuild } = {},
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
  balance: number;
  ledgerSum: number;
  ledgerEntries: number;
  lastBalanceAfter: number | null;
  redemptions: number;
  redeemedPriceSum: number;
}

/** A user's points as the database has them, for checking that every change is accounted for. */
export async function pointsOf(db: Db, user: DemoUserKey): Promise<PointsState> {
  const { id, points } = await db
    .selectFrom('users')
    .select(['id', 'points'])
    .where('public_id', '=', DEMO_IDS.users[user])
    .executeTakeFirstOrThrow();
  const ledger = await db
    .selectFrom('point_ledger')
    .select([
      sql<number | string>`coalesce(sum(delta), 0)`.as('sum'),
      sql<number | string>`count(*)`.as('count'),
    ])
    .where('user_id', '=', id)
    .executeTakeFirstOrThrow();
  const last = await db
    .selectFrom('point_ledger')
    .select('balance_after')
    .where('user_id', '=', id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const redemptions = await db
    .selectFrom('redemptions')
    .select([
      sql<number | string>`count(*)`.as('count'),
      sql<number | string>`coalesce(sum(price_points), 0)`.as('sum'),
    ])
    .where('user_id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    balance: points,
    ledgerSum: Number(ledger.sum),
    ledgerEntries: Number(ledger.count),
    lastBalanceAfter: last?.balance_after ?? null,
    redemptions: Number(redemptions.count),
    redeemedPriceSum: Number(redemptions.sum),
  };
}
