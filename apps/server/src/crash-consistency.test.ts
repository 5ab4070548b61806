import Sqlite from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { dataPaths } from './config/data-paths.ts';
import { DEMO_IDS } from './demo/seed/demo-ids.ts';
import { makeTempDataDir } from './test-support/test-app.ts';

/**
 * A real crash: the built server, as `npm start` runs it, is killed with SIGKILL while dozens of
 * redemptions (or membership grants) are in flight, then started again on the same data. Whatever
 * the moment of the kill, every balance still equals its ledger, every redemption has its one
 * ledger entry, and every membership ends when its user's latest counting transaction ends.
 */
const SERVER = fileURLToPath(new URL('../dist/server.js', import.meta.url));
const PORT = 18_700 + (process.pid % 200);
const ORIGIN = `http://127.0.0.1:${PORT}`;

let temp: { dataDir: string; remove: () => Promise<void> };

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: temp.dataDir,
      APP_MODE: 'demo',
      // The link domain on the same port under another name: no second port to hold.
      LINK_ORIGIN: `http://localhost:${PORT}`,
    },
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      const response = await fetch(`${ORIGIN}${API_BASE_PATH}/health`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start');
}

async function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function logIn(userId: string): Promise<string> {
  const response = await fetch(`${ORIGIN}${API_BASE_PATH}/demo/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  return ((await response.json()) as { token: string }).token;
}

function redeem(token: string, designId: string): Promise<unknown> {
  return fetch(`${ORIGIN}${API_BASE_PATH}/designs/${designId}/redemptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
  }).catch(() => undefined); // the server dies under it: that is the point
}

async function signedPurchase(token: string, productId: string): Promise<string | undefined> {
  const membership = await fetch(`${ORIGIN}${API_BASE_PATH}/membership`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { appAccountToken } = (await membership.json()) as { appAccountToken: string };
  const signed = await fetch(`${ORIGIN}${API_BASE_PATH}/demo/storekit/transactions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ productId, appAccountToken }),
  });
  return ((await signed.json()) as { signedTransaction?: string }).signedTransaction;
}

function submit(token: string, signedTransaction: string): Promise<unknown> {
  return fetch(`${ORIGIN}${API_BASE_PATH}/membership/transactions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ signedTransaction }),
  }).catch(() => undefined);
}

/** Every membership ends when the latest transaction of its user that still counts ends. */
function checkMemberships(): number {
  const db = new Sqlite(dataPaths(temp.dataDir).database, { readonly: true });
  try {
    const wrong = db
      .prepare(
        `select m.user_id from memberships m
         left join (select user_id, max(expires_date) as latest from app_store_transactions
                    where revoked_at is null group by user_id) t on t.user_id = m.user_id
         where t.latest is null or m.expires_at <> t.latest`,
      )
      .all();
    expect(wrong).toEqual([]);
    const missing = db
      .prepare(
        `select t.user_id from app_store_transactions t
         left join memberships m on m.user_id = t.user_id where m.user_id is null`,
      )
      .all();
    expect(missing).toEqual([]);
    return (db.prepare('select count(*) as n from app_store_transactions').get() as { n: number })
      .n;
  } finally {
    db.close();
  }
}

/** The invariants a crash must never break, read straight from the database file. */
/**
 * What the platform gave each user: the balance with what was spent here added back. A crash at
 * any moment leaves it as it was (a debit and its ledger entry commit together, or neither).
 */
let given: Record<number, number> | undefined;

function checkLedger(): { redemptions: number } {
  const db = new Sqlite(dataPaths(temp.dataDir).database, { readonly: true });
  try {
    const rows = db
      .prepare(
        `select u.id, u.points - coalesce(l.total, 0) as given, u.points from users u
         left join (select user_id, sum(delta) as total from point_ledger group by user_id) l
           on l.user_id = u.id`,
      )
      .all() as { id: number; given: number; points: number }[];
    expect(rows.filter((row) => row.points < 0)).toEqual([]);
    const now = Object.fromEntries(rows.map((row) => [row.id, row.given]));
    given ??= now;
    expect(now).toEqual(given);
    const orphans = db
      .prepare(
        `select r.id from redemptions r
         left join point_ledger l on l.id = r.ledger_entry_id
         where l.id is null or l.delta <> -r.price_points or l.user_id <> r.user_id`,
      )
      .all();
    expect(orphans).toEqual([]);
    const entries = db
      .prepare(`select count(*) as n from point_ledger where reason = 'redemption'`)
      .get() as { n: number };
    const redemptions = db.prepare(`select count(*) as n from redemptions`).get() as { n: number };
    expect(entries.n).toBe(redemptions.n);
    return { redemptions: redemptions.n };
  } finally {
    db.close();
  }
}

describe('a server killed in the middle of redemptions', () => {
  beforeAll(async () => {
    if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
    temp = await makeTempDataDir();
  });
  afterAll(() => temp.remove());

  it('leaves every balance and its ledger in step, whatever the moment of the kill', async () => {
    const designs = Object.values(DEMO_IDS.designs);
    const users = Object.values(DEMO_IDS.users);
    const before = await (async () => {
      const server = await startServer();
      await killed(server);
      return checkLedger().redemptions;
    })();
    let after = before;
    for (const delayMs of [5, 20, 45, 80]) {
      const server = await startServer();
      const tokens = await Promise.all(users.map(logIn));
      const inFlight = tokens.flatMap((token) =>
        designs.flatMap((design) => [redeem(token, design), redeem(token, design)]),
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await killed(server);
      await Promise.all(inFlight);
      after = checkLedger().redemptions;
    }
    // Something was redeemed along the way, and nothing was left half-done.
    const server = await startServer();
    await killed(server);
    expect(checkLedger().redemptions).toBe(after);
    expect(after).toBeGreaterThanOrEqual(before);
  }, 120_000);

  it('leaves every membership matching its transactions, whatever the moment of the kill', async () => {
    const users = Object.values(DEMO_IDS.users);
    for (const delayMs of [5, 25, 60]) {
      const server = await startServer();
      const tokens = await Promise.all(users.map(logIn));
      // Signed first (the App Store's part), then all sent at once (the page's part).
      const purchases = await Promise.all(
        tokens.flatMap((token) =>
          ['vip.monthly', 'vip.quarterly', 'vip.yearly'].map(async (product) => ({
            token,
            signed: await signedPurchase(token, product),
          })),
        ),
      );
      const inFlight = purchases.flatMap(({ token, signed }) =>
        signed ? [submit(token, signed), submit(token, signed)] : [],
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await killed(server);
      await Promise.all(inFlight);
      checkMemberships();
    }
  }, 120_000);
});
