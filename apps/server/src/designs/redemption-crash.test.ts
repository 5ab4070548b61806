import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redemptionsApiPath } from '@guquan/contract/design';
import type { Db } from '../db/database.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { startStandInPlatform, type StandInPlatform } from '../stand-in/stand-in-platform.ts';
import {
  assertServerBuilt,
  demoToken,
  killHard,
  startDemoServer,
} from '../test-support/built-server.ts';
import { makeTempDataDir } from '../test-support/test-app.ts';
import { openTestDataDirDatabase, testDatabaseEnv } from '../test-support/test-engine.ts';
import { until } from '../../../../tests/support/wait-until.ts';

/** A limit for a hang, not a speed: several starts of a server, each slow on a loaded machine. */
const KILLS_WITHIN_MS = 600_000;

/**
 * A real crash (issue 30, section 3): the built server, as `npm start` runs it, is killed with
 * SIGKILL while a debit is in flight: the platform has charged it, its answer not yet sent. After
 * the restart the redemption is still pending; once its lease runs out the retry worker asks
 * again with the same key, the platform answers the stored charge, and it is redeemed. One
 * charge. The stand-in platform runs in this process, so it outlives the server.
 */
const PORT = 18_500 + (process.pid % 200);
const ORIGIN = `http://127.0.0.1:${PORT}`;

let temp: { dataDir: string; remove: () => Promise<void> };
let standIn: StandInPlatform;
let db: Db;
/** While set, a charge's answer waits for it (the debit is "in flight"). */
let hold: Promise<void> | undefined;
let charged: (() => void) | undefined;

async function startServer(): Promise<ChildProcess> {
  return startDemoServer({
    port: PORT,
    dataDir: temp.dataDir,
    env: { ...standIn.env, ...(await testDatabaseEnv(temp.dataDir)) },
  });
}

beforeAll(async () => {
  assertServerBuilt();
  temp = await makeTempDataDir();
  standIn = await startStandInPlatform({
    dataDir: temp.dataDir,
    imageScale: 0.25,
    ledger: {
      afterCharge: async () => {
        charged?.();
        await hold;
      },
    },
  });
  db = await openTestDataDirDatabase(temp.dataDir);
});
afterAll(async () => {
  await db.destroy();
  await standIn.close();
  await temp.remove();
});

describe('a server killed while a debit is in flight', () => {
  it(
    'asks again after the restart with the same key, and the platform charges once',
    async () => {
      let server = await startServer();
      try {
        const token = await demoToken(ORIGIN, DEMO_IDS.users.karasuno);
        let release: (() => void) | undefined;
        hold = new Promise((resolve) => {
          release = resolve;
        });
        const wasCharged = new Promise<void>((resolve) => {
          charged = resolve;
        });
        const tap = fetch(`${ORIGIN}${redemptionsApiPath(DEMO_IDS.designs.sakura)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
        }).catch(() => undefined); // the server dies under it: that is the point
        await wasCharged;
        await killHard(server);
        await tap;
        hold = undefined;
        release?.();

        const pending = await db
          .selectFrom('redemptions')
          .innerJoin('users', 'users.id', 'redemptions.user_id')
          .select(['redemptions.public_id', 'redemptions.state', 'users.points'])
          .where('users.public_id', '=', DEMO_IDS.users.karasuno)
          .executeTakeFirstOrThrow();
        expect(pending).toMatchObject({ state: 'pending', points: 500 });
        expect(standIn.ledger.debits().map((debit) => debit.key)).toEqual([pending.public_id]);
        expect(standIn.ledger.requests()).toBe(1);

        server = await startServer();
        const rowNow = () =>
          db
            .selectFrom('redemptions')
            .innerJoin('users', 'users.id', 'redemptions.user_id')
            .select(['redemptions.state', 'redemptions.balance_after', 'users.points'])
            .where('redemptions.public_id', '=', pending.public_id)
            .executeTakeFirstOrThrow();
        // The restarted server's worker asks again, with the same key (a limit for a hang).
        await until(async () => (await rowNow()).state !== 'pending', 45_000, 250);
        expect(await rowNow()).toEqual({ state: 'redeemed', balance_after: 300, points: 300 });
        // Asked twice with one key; charged once.
        expect(standIn.ledger.requests()).toBe(2);
        expect(standIn.ledger.debits()).toHaveLength(1);
        expect(standIn.ledger.balanceOf(DEMO_IDS.users.karasuno)).toBe(300);
      } finally {
        await killHard(server);
      }
    },
    KILLS_WITHIN_MS,
  );
});
