import { Agent, request } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, HEALTH_PATH } from '../support/cluster.ts';
import { inParallel } from './http-client.ts';
import { APP_LINK_CLAIMS_PATH, APP_LINK_HANDOFFS_PATH } from '@guquan/contract/app-link-paths';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { HANDOFF_LIMITS } from '../../apps/server/src/app-links/handoff-routes.ts';

/**
 * The ceiling on handoff-code guesses (docs/decisions/0017-app-links-and-handoffs.md) across
 * servers, through nginx: with guesses in flight all at once on every server, at most the
 * minute's misses are answered. (The audit had 1,671 misses answered within 2.2 s against a
 * ceiling of 600 a minute: each server looked at the count before the lookup and charged it
 * after.)
 */
const SERVERS = 3;
/** Each client’s own limit is 30 claims a minute: guesses come 25 from each address. */
const PER_CLIENT = 25;
const INSTALL = 'cluster-install-0123456789';
/** A miss, a refusal, or nginx's 503 when it could reach no server in time (see below). */
const ANSWERED = new Set(['404', '429', '503']);
/** The miss budget's window in Redis (shared-budget.ts, under rate-limits.ts' prefix). */
const MISS_BUDGET_KEY = 'guquan:rate-limit:budget:app-links:claim-misses';

let cluster: Cluster;
const clients: Agent[] = [];
beforeAll(async () => {
  cluster = await startCluster({
    instances: SERVERS,
    cache: false,
    serverOutput: process.env.CLUSTER_LOGS ? 'inherit' : 'ignore',
  });
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  // Undefined when the start failed (it cleaned up after itself).
  await (cluster as Cluster | undefined)?.stop();
});

/**
 * A client at a loopback address of its own (fetch cannot choose its source address): nginx
 * passes that address on as the client's. Its connections are kept open, so that once warmed,
 * its requests leave at once.
 */
function clientAt(localAddress: string): Agent {
  const client = new Agent({ keepAlive: true, maxSockets: PER_CLIENT, localAddress });
  clients.push(client);
  return client;
}

interface Answer {
  status: number | 'network-error';
  body: string;
}

/** A request through nginx from `client`: a JSON POST when there is a body, else a GET. */
function send(client: Agent, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const sent = request(
      new URL(path, cluster.origin),
      {
        method: payload === undefined ? 'GET' : 'POST',
        agent: client,
        headers:
          payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        timeout: 30_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body: text });
        });
      },
    );
    sent.on('timeout', () => sent.destroy(new Error('timed out')));
    sent.on('error', (error) => {
      resolve({ status: 'network-error', body: error.message });
    });
    sent.end(payload);
  });
}

function countsOf(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

let nextAddress = 0;

/** Clients enough for `count` guesses, 25 each (within each one's own limit). */
function guessers(count: number): Agent[] {
  return Array.from({ length: Math.ceil(count / PER_CLIENT) }, () => {
    nextAddress += 1;
    return clientAt(`127.0.${1 + Math.floor(nextAddress / 250)}.${1 + (nextAddress % 250)}`);
  });
}

function guess(client: Agent, index: number): Promise<Answer> {
  return send(client, APP_LINK_CLAIMS_PATH, {
    code: `ZZZZ${String(nextAddress).padStart(4, '0')}${String(index).padStart(4, '0')}`,
    installId: INSTALL,
  });
}

/**
 * `count` wrong claims all in flight at once. Each client's connections are opened first, a few
 * clients at a time (a health check on each), so that the guesses leave together.
 */
async function guessAtOnce(count: number): Promise<Record<string, number>> {
  const clients = guessers(count);
  await inParallel(clients.length, 4, async (index) => {
    const client = clients[index] as Agent;
    const warmed = await Promise.all(
      Array.from({ length: PER_CLIENT }, () => send(client, HEALTH_PATH)),
    );
    expect(countsOf(warmed)).toEqual({ 200: PER_CLIENT });
  });
  const answers = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      guess(clients[Math.floor(index / PER_CLIENT)] as Agent, index),
    ),
  );
  return countsOf(answers);
}

/** `count` wrong claims, `inFlight` at a time. */
async function guessInTurn(count: number, inFlight: number): Promise<Record<string, number>> {
  const clients = guessers(count);
  const answers = await inParallel(count, inFlight, (index) =>
    guess(clients[Math.floor(index / PER_CLIENT)] as Agent, index),
  );
  return countsOf(answers);
}

describe('the handoff codes’ miss ceiling across servers', () => {
  let code = '';
  beforeAll(async () => {
    const minted = await send(clientAt('127.0.9.1'), APP_LINK_HANDOFFS_PATH, {
      target: { kind: 'goods', id: DEMO_IDS.goods.gallery },
    });
    expect(minted.status).toBe(201);
    code = (JSON.parse(minted.body) as { code: string }).code;
  });

  it('answers at most the minute’s misses with 1,800 guesses in flight through nginx', async () => {
    // Misses within the ceiling: a real code is answered. The budget's minute begins here.
    const minuteBegan = performance.now();
    const hit = await send(clientAt('127.0.9.2'), APP_LINK_CLAIMS_PATH, {
      code,
      installId: INSTALL,
    });
    expect(hit.status).toBe(200);

    const counts = await guessAtOnce(1_800);
    const seen = JSON.stringify(counts);
    // The ceiling holds across the servers: the minute's misses and no more (the issue allowed
    // one more per server; the budget shared in Redis is exact), the rest refused. A 503 is
    // nginx's own answer when it could not connect to any server in time (it happens on a small,
    // busy machine with 1,800 connections to open at once): no server saw that guess. A machine
    // so slow that the guesses outlast the minute gets the next minute's misses too, and no more
    // (issue 42): the test asserts the ceiling, not the machine's speed.
    const minutes = Math.ceil((performance.now() - minuteBegan) / 60_000);
    expect(counts[404], seen).toBeLessThanOrEqual(
      minutes * HANDOFF_LIMITS.missesPerMinute + SERVERS,
    );
    expect(counts[404], seen).toBeGreaterThanOrEqual(HANDOFF_LIMITS.missesPerMinute);
    expect(
      Object.keys(counts).filter((status) => !ANSWERED.has(status)),
      seen,
    ).toEqual([]);
    // Spent for this minute: a real code is not looked up either.
    const refused = await send(clientAt('127.0.9.3'), APP_LINK_CLAIMS_PATH, {
      code,
      installId: INSTALL,
    });
    if (performance.now() - minuteBegan < minutes * 60_000) expect(refused.status).toBe(429);
  }, 240_000);

  it('with Redis lost, each server counts the misses in its own memory, in Redis again once it is back', async () => {
    await cluster.redis.stop();
    try {
      // Every guess still answered (the other limits let requests through uncounted), but no
      // more misses than the ceiling on each server: of 2,400 guesses, at least 600 refused.
      // Not all at once: how nginx shares them out does not matter here.
      const counts = await guessInTurn(2_400, 100);
      const seen = JSON.stringify(counts);
      expect(counts[404], seen).toBeLessThanOrEqual(HANDOFF_LIMITS.missesPerMinute * SERVERS);
      // More than one server's worth: each counts on its own (the ceiling is neither shared
      // nor shut).
      expect(counts[404], seen).toBeGreaterThan(HANDOFF_LIMITS.missesPerMinute);
      expect(
        Object.keys(counts).filter((status) => !ANSWERED.has(status)),
        seen,
      ).toEqual([]);
    } finally {
      await cluster.redis.restart();
    }
    // Once ioredis has reconnected, the misses are counted in Redis again (a fresh window:
    // Redis restarted empty), and the real code is answered.
    const redis = new Redis(cluster.redis.url);
    try {
      const client = clientAt('127.0.9.5');
      await expect
        .poll(
          async () => {
            await guessInTurn(1, 1);
            return redis.hget(MISS_BUDGET_KEY, 'n');
          },
          { timeout: 15_000, interval: 500 },
        )
        .not.toBeNull();
      // (A server still reconnecting takes from its own memory, spent: it answers 429 meanwhile.)
      await expect
        .poll(
          async () =>
            (await send(client, APP_LINK_CLAIMS_PATH, { code, installId: INSTALL })).status,
          { timeout: 15_000, interval: 500 },
        )
        .toBe(200);
    } finally {
      redis.disconnect();
    }
  }, 240_000);
});
