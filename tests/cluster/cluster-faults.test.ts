import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/cluster-lib.mjs';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { inParallel, send, sleep, type Outcome } from './http-client.ts';
import { stopPostgresForAWhile } from './postgres-pause.ts';

/**
 * The faults a cluster must ride out, through nginx: PostgreSQL stopped for a while, and an app
 * server killed (kill -9) while share pages are read and while designs are redeemed. Three
 * servers, so each kill still leaves two.
 */
const PORTS: [number, number] = [18700, 18720];
const SHARE_PAGE = `/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&lang=zh-CN`;
const API = '/anime_merch_web/api/v1';

let cluster: Cluster;
beforeAll(async () => {
  // nginx's cache off: every request must reach a server for the kill to matter.
  cluster = await startCluster({
    instances: 3,
    ports: PORTS,
    cache: false,
    serverOutput: process.env.CLUSTER_LOGS ? 'inherit' : 'ignore',
  });
});
afterAll(async () => {
  await cluster.stop();
});

function statusCounts(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of outcomes) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('PostgreSQL stopped for a while', () => {
  it('gets 503s in the error shape and a friendly page, and recovers by itself', async () => {
    const { origin } = cluster;
    const apiUrl = `${origin}${API}/goods/${DEMO_IDS.goods.gallery}`;
    expect((await send(apiUrl)).status).toBe(200);
    const startAgain = await stopPostgresForAWhile(cluster.postgres);
    try {
      const api = await send(apiUrl);
      expect(api.status).toBe(503);
      expect(JSON.parse(api.body)).toMatchObject({
        error: { code: 'service_unavailable', message: expect.any(String) as string },
      });
      const page = await send(`${origin}${SHARE_PAGE}`);
      expect(page.status).toBe(503);
      expect(page.headers?.get('content-type')).toMatch(/^text\/html/);
      expect(page.body).toContain('页面暂时无法访问');
      // A few seconds down: the servers keep answering, none exits.
      await sleep(2_000);
      expect((await send(apiUrl)).status).toBe(503);
      for (const server of cluster.servers) expect(server.child.exitCode).toBeNull();
    } finally {
      await startAgain();
    }
    // Back by themselves: the pools reconnect, and nginx sends to every server again after the
    // few seconds it leaves out a server that answered 503.
    await expect.poll(async () => (await send(apiUrl)).status, { timeout: 20_000 }).toBe(200);
    await sleep(6_000);
    expect((await send(`${origin}${SHARE_PAGE}`)).status).toBe(200);
    for (const server of cluster.servers) expect(server.child.exitCode).toBeNull();
  });
});

describe('an app server killed during a burst of share-page requests', () => {
  it('fails no request: nginx sends those the dead server dropped to another', async () => {
    const total = 300;
    let killed = false;
    const outcomes = await inParallel(total, 16, async (index) => {
      if (index === 80 && !killed) {
        killed = true;
        void cluster.killServer(0);
      }
      return send(`${cluster.origin}${SHARE_PAGE}`);
    });
    expect(killed).toBe(true);
    expect(cluster.servers[0]?.child.signalCode).toBe('SIGKILL');
    expect(
      outcomes.filter((outcome) => outcome.status !== 200).map((outcome) => outcome.error),
    ).toEqual([]);
    expect(statusCounts(outcomes)).toEqual({ 200: total });
  });
});

interface Attempt {
  user: string;
  design: string;
  token: string;
  key: string;
}

/**
 * One redemption attempt as the redeem page makes it: the same Idempotency-Key until a definite
 * answer; a lost connection, a 502 or a 503 (the server died under it) means "try again".
 */
async function redeemUntilAnswered(origin: string, attempt: Attempt): Promise<Outcome> {
  for (let tries = 1; ; tries += 1) {
    const outcome = await send(`${origin}${API}/designs/${attempt.design}/redemptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${attempt.token}`, 'idempotency-key': attempt.key },
    });
    const retry = outcome.status === 'network-error' || [502, 503, 504].includes(outcome.status);
    if (!retry || tries >= 20) return outcome;
    await sleep(100);
  }
}

async function logIn(origin: string, userId: string): Promise<string> {
  const outcome = await send(`${origin}${API}/demo/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  expect(outcome.status).toBe(201);
  return (JSON.parse(outcome.body) as { token: string }).token;
}

async function viewOf(origin: string, token: string, design: string) {
  const outcome = await send(`${origin}${API}/designs/${design}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(outcome.status).toBe(200);
  return JSON.parse(outcome.body) as {
    design: { pricePoints: number };
    viewer: { balance: number; redemption: { id: string } | null };
  };
}

describe('an app server killed during parallel redemptions', () => {
  it('loses none and doubles none: each user is debited once per design redeemed', async () => {
    const { origin } = cluster;
    const users = [
      DEMO_IDS.users.yuyuan,
      DEMO_IDS.users.karasuno,
      DEMO_IDS.users.conductor,
      DEMO_IDS.users.beika,
    ];
    const designs = [DEMO_IDS.designs.sakura, DEMO_IDS.designs.shelf, DEMO_IDS.designs.premium];
    const tokens = new Map<string, string>();
    const before = new Map<string, { balance: number; had: Set<string> }>();
    const prices = new Map<string, number>();
    for (const user of users) {
      const token = await logIn(origin, user);
      tokens.set(user, token);
      const had = new Set<string>();
      let balance = 0;
      for (const design of designs) {
        const view = await viewOf(origin, token, design);
        balance = view.viewer.balance;
        prices.set(design, view.design.pricePoints);
        if (view.viewer.redemption) had.add(design);
      }
      before.set(user, { balance, had });
    }

    // Each (user, design) attempt is sent twice at once (a double tap), staggered over 300 ms;
    // a server is killed in the middle of it.
    const attempts: Attempt[] = users.flatMap((user) =>
      designs.map((design) => ({ user, design, token: tokens.get(user) ?? '', key: randomUUID() })),
    );
    const killing = sleep(120).then(() => cluster.killServer(1));
    const answers = await Promise.all(
      attempts.map(async (attempt, index) => {
        await sleep((index * 300) / attempts.length);
        return Promise.all([
          redeemUntilAnswered(origin, attempt),
          redeemUntilAnswered(origin, attempt),
        ]);
      }),
    );
    await killing;

    for (const [index, attempt] of attempts.entries()) {
      const pair = answers[index] ?? [];
      for (const answer of pair) {
        // A definite answer for every attempt: redeemed (201, or 200 replayed), or refused.
        expect([200, 201, 409], `${attempt.user}/${attempt.design}`).toContain(answer.status);
      }
      const ids = pair
        .filter((answer) => answer.status === 200 || answer.status === 201)
        .map((answer) => (JSON.parse(answer.body) as { redemption: { id: string } }).redemption.id);
      // Both taps of one attempt are the same redemption.
      expect(new Set(ids).size).toBeLessThanOrEqual(1);
    }
    for (const user of users) {
      const token = tokens.get(user) ?? '';
      const { balance, had } = before.get(user) ?? { balance: 0, had: new Set() };
      let spent = 0;
      for (const design of designs) {
        const view = await viewOf(origin, token, design);
        const attempt = attempts.findIndex((a) => a.user === user && a.design === design);
        const redeemedNow = (answers[attempt] ?? []).some(
          (answer) => answer.status === 200 || answer.status === 201,
        );
        // Redeemed exactly when an answer said so (or before the test).
        expect(view.viewer.redemption !== null, `${user}/${design}`).toBe(
          redeemedNow || had.has(design),
        );
        if (redeemedNow) spent += prices.get(design) ?? 0;
      }
      const after = (await viewOf(origin, token, designs[0] ?? '')).viewer.balance;
      expect(after, user).toBe(balance - spent);
    }
  });
});
