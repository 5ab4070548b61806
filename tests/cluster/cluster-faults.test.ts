import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { RESTART_BACKOFF } from '../support/cluster-supervisor.ts';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { VERSIONED_ADDRESS_CACHE_CONTROL } from '../../apps/server/src/http/shared-caches.ts';
import { inParallel, send, sleep, type Outcome } from './http-client.ts';
import { stopPostgresForAWhile } from './postgres-pause.ts';

/**
 * The faults a cluster must ride out, through nginx: PostgreSQL stopped for a while, its
 * connections cut (pg_terminate_backend), and an app server killed (kill -9) while share pages are
 * read and while designs are redeemed; a server that exits is restarted. Three servers, so each
 * kill still leaves two.
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
      for (const server of cluster.servers) {
        expect(server.child.exitCode).toBeNull();
        expect(server.restarts).toEqual([]);
      }
    } finally {
      await startAgain();
    }
    // Back by themselves: the pools reconnect, and nginx sends to every server again after the
    // few seconds it leaves out a server that answered 503.
    await expect.poll(async () => (await send(apiUrl)).status, { timeout: 20_000 }).toBe(200);
    // The share page too, once nginx sends to every server again: as many requests at once as
    // it has servers, each answered 200 (before: a fixed 6 s wait, then one request).
    await expect
      .poll(
        async () => {
          const answers = await Promise.all(
            cluster.servers.map(() => send(`${origin}${SHARE_PAGE}`)),
          );
          return answers.every((answer) => answer.status === 200);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    for (const server of cluster.servers) {
      expect(server.child.exitCode).toBeNull();
      expect(server.restarts).toEqual([]);
    }
  });
});

describe('an app server killed during a burst of share-page requests', () => {
  it('fails no request: nginx sends those the dead server dropped to another', async () => {
    const total = 300;
    let killing: ReturnType<Cluster['killServer']> | undefined;
    const outcomes = await inParallel(total, 16, async (index) => {
      if (index === 80) killing ??= cluster.killServer(0);
      return send(`${cluster.origin}${SHARE_PAGE}`);
    });
    expect((await killing)?.signal).toBe('SIGKILL');
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
    // 202: pending (the platform's answer not in: a server died asking it, say). The page polls;
    // here the same attempt is sent again until it is redeemed or refused.
    const pending = outcome.status === 202;
    const retry =
      pending || outcome.status === 'network-error' || [502, 503, 504].includes(outcome.status);
    if (!retry || tries >= 80) return outcome;
    await sleep(pending ? 500 : 100);
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

interface BurstReport {
  /** Every (user, design) attempt and the answers its two taps got in the end. */
  attempts: Attempt[];
  answers: Outcome[][];
}

/**
 * Each of four users redeems three designs, each attempt tapped twice at once, staggered over
 * 300 ms, while `fault` strikes; then checks that every attempt got a definite answer, both taps
 * the same redemption, and every balance moved by exactly what was redeemed.
 */
async function redemptionBurst(
  origin: string,
  users: string[],
  designs: string[],
  fault: () => Promise<unknown>,
): Promise<BurstReport> {
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

  const attempts: Attempt[] = users.flatMap((user) =>
    designs.map((design) => ({ user, design, token: tokens.get(user) ?? '', key: randomUUID() })),
  );
  const striking = fault();
  const answers = await Promise.all(
    attempts.map(async (attempt, index) => {
      await sleep((index * 300) / attempts.length);
      return Promise.all([
        redeemUntilAnswered(origin, attempt),
        redeemUntilAnswered(origin, attempt),
      ]);
    }),
  );
  await striking;

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
  return { attempts, answers };
}

describe('an app server killed during parallel redemptions', () => {
  it('loses none and doubles none: each user is debited once per design redeemed', async () => {
    await redemptionBurst(
      cluster.origin,
      [
        DEMO_IDS.users.yuyuan,
        DEMO_IDS.users.karasuno,
        DEMO_IDS.users.conductor,
        DEMO_IDS.users.beika,
      ],
      [DEMO_IDS.designs.sakura, DEMO_IDS.designs.shelf, DEMO_IDS.designs.premium],
      // A server is killed in the middle of it.
      () => sleep(120).then(() => cluster.killServer(1)),
    );
  });
});

describe("PostgreSQL's connections cut during parallel redemptions", () => {
  it('ends no server: requests fail as 503 and are retried, nothing is lost or doubled', async () => {
    // The servers killed above are being started again: wait until each answers, so the cut
    // meets running servers (one cut off while it starts exits, and is restarted, by design).
    for (const server of cluster.servers)
      await expect
        .poll(async () => (await send(`http://127.0.0.1:${server.port}${API}/health`)).status, {
          timeout: 30_000,
          interval: 100,
        })
        .toBe(200);
    const restartsBefore = cluster.servers.map((server) => server.restarts.length);
    const pidsBefore = cluster.servers.map((server) => server.pid);
    const admin = new pg.Client({ connectionString: cluster.postgres.url() });
    await admin.connect();
    let cut = 0;
    try {
      await redemptionBurst(
        cluster.origin,
        [DEMO_IDS.users.yuyuan, DEMO_IDS.users.conductor, DEMO_IDS.users.beika],
        [DEMO_IDS.designs.starry, DEMO_IDS.designs.sakura, DEMO_IDS.designs.shelf],
        // Every connection of every server, three times during the burst: those in the middle
        // of a transaction, those holding one between two statements, and the idle ones.
        async () => {
          for (const delay of [60, 60, 60]) {
            await sleep(delay);
            const result = await admin.query<{ n: number }>(
              `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
               where datname = current_database() and pid <> pg_backend_pid()`,
            );
            cut += result.rows[0]?.n ?? 0;
          }
        },
      );
    } finally {
      await admin.end();
    }
    expect(cut).toBeGreaterThan(0);
    // No server exited (the supervisor would have restarted it: that would hide a crash).
    expect(cluster.servers.map((server) => server.restarts.length)).toEqual(restartsBefore);
    expect(cluster.servers.map((server) => server.pid)).toEqual(pidsBefore);
    // And the pools serve again.
    expect((await send(`${cluster.origin}${API}/goods/${DEMO_IDS.goods.gallery}`)).status).toBe(
      200,
    );
  });
});

describe('an app server that exits', () => {
  it('is started again, as systemd would, sooner the first time than when it keeps failing', async () => {
    const server = cluster.servers[2];
    if (!server) throw new Error('three servers');
    const health = `http://127.0.0.1:${server.port}${API}/health`;
    const restartsBefore = server.restarts.length;
    for (let crash = 1; crash <= 2; crash += 1) {
      const pid = server.pid;
      expect((await cluster.killServer(2)).signal).toBe('SIGKILL');
      // Back on its port (nginx sends to it again), as a new process.
      await expect
        .poll(async () => (await send(health)).status, { timeout: 30_000, interval: 100 })
        .toBe(200);
      expect(server.pid).not.toBe(pid);
    }
    const delays = server.restarts.slice(restartsBefore).map((restart) => restart.delayMs);
    expect(server.restarts.slice(restartsBefore).map((restart) => restart.exit)).toEqual([
      'SIGKILL',
      'SIGKILL',
    ]);
    // Crashing again soon after a restart: a wait twice the one before.
    expect(delays).toEqual([RESTART_BACKOFF.firstMs, RESTART_BACKOFF.firstMs * 2]);
    // Meanwhile the site answered through the others.
    expect((await send(`${cluster.origin}${SHARE_PAGE}`)).status).toBe(200);
  });
});

describe("each server's own disk", () => {
  it('every server serves the same image; one whose disk is wiped fetches it again', async () => {
    const goods = await send(`${cluster.origin}${API}/goods/${DEMO_IDS.goods.gallery}`);
    const [image] = (JSON.parse(goods.body) as { images: { id: string }[] }).images;
    const media = `/anime_merch_web/media/${image?.id ?? ''}/640.webp`;
    const fromEach = async () =>
      Promise.all(
        cluster.servers.map(async ({ port }) => {
          const response = await fetch(`http://127.0.0.1:${port}${media}`);
          expect(response.status).toBe(200);
          // The image itself (kept a year), not the placeholder (max-age=0).
          expect(response.headers.get('cache-control')).toBe(VERSIONED_ADDRESS_CACHE_CONTROL);
          return Buffer.from(await response.arrayBuffer());
        }),
      );
    const [first, ...others] = await fromEach();
    for (const other of others) expect(other.equals(first ?? Buffer.alloc(0))).toBe(true);
    // A server's disk wiped while it runs (a new pod's is empty): it serves the image again.
    const [, wiped] = cluster.servers;
    for (const dir of wiped?.mediaDirs ?? []) await rm(dir, { recursive: true, force: true });
    const again = await fromEach();
    for (const bytes of again) expect(bytes.equals(first ?? Buffer.alloc(0))).toBe(true);
  });
});
