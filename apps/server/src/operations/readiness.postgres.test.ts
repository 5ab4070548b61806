import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../../../tests/support/postgres-server.ts';
import { startRedis, type RedisServer } from '../../../../tests/support/redis-server.ts';
import { stopPostgresForAWhile } from '../../../../tests/cluster/postgres-pause.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { operationsOf } from './operations.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

/**
 * Readiness with the real parts taken away: a PostgreSQL of this test's own, stopped and started
 * again, and Redis stopped and started again. The server stays live throughout.
 */
function portsFromEnv(): number | [number, number] {
  const match = /^(\d+)-(\d+)$/.exec(process.env.TEST_POSTGRES_PORTS ?? '');
  return match ? [Number(match[1]), Number(match[2])] : 0;
}

let postgres: PostgresServer;
let redis: RedisServer;
let app: FastifyInstance;
let ops: FastifyInstance;

beforeAll(async () => {
  postgres = await startPostgres({ ports: portsFromEnv() });
  redis = await startRedis();
  app = await buildTestApp({ DATABASE_URL: postgres.url(), REDIS_URL: redis.url });
  const found = operationsOf(app);
  if (!found) throw new Error('no operators’ listener');
  ops = found;
}, 120_000);

afterAll(async () => {
  await app.close();
  await redis.stop();
  await postgres.stop();
});

async function readiness() {
  const answer = await ops.inject('/health/ready');
  return { ...answer.json<Record<string, unknown>>(), code: answer.statusCode };
}

it('is 503 while PostgreSQL is stopped, and ready again once it is back', async () => {
  expect(await readiness()).toMatchObject({ code: 200, database: 'up', redis: 'up' });
  const startAgain = await stopPostgresForAWhile(postgres);
  try {
    expect(await readiness()).toMatchObject({ code: 503, database: 'down', ready: false });
    // Alive all the while: a database outage must not get the server restarted.
    expect((await ops.inject('/health/live')).statusCode).toBe(200);
  } finally {
    await startAgain();
  }
  await expect
    .poll(async () => (await readiness()).code, { timeout: 20_000, interval: 250 })
    .toBe(200);
});

it('is 503 while Redis is away, and ready again once it is back', async () => {
  await redis.stop();
  await expect
    .poll(async () => readiness(), { ...EVENTUALLY, interval: 100 })
    .toMatchObject({ code: 503, redis: 'down', database: 'up' });
  await redis.restart();
  await expect
    .poll(async () => (await readiness()).code, { timeout: 20_000, interval: 250 })
    .toBe(200);
  const metrics = (await ops.inject('/metrics')).body;
  expect(metrics).toMatch(/^guquan_redis_up 1$/m);
  expect(metrics).toMatch(/^guquan_db_pool_size \d+$/m);
  expect(metrics).toMatch(/^guquan_db_pool_connections_in_use \d+$/m);
  expect(metrics).toMatch(/^guquan_db_pool_waiting \d+$/m);
});
