import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SESSIONS_PATH } from '@guquan/contract/session';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { freePort, startRedis, type RedisServer } from '../../../../tests/support/redis-server.ts';

/** The demo log-in allows 30 per minute per address (demo-routes.ts). */
const LOGIN_LIMIT = 30;

function logIn(app: FastifyInstance) {
  return app.inject({
    method: 'POST',
    url: DEMO_SESSIONS_PATH,
    payload: { userId: DEMO_IDS.users.yuyuan },
  });
}

async function statuses(app: FastifyInstance, count: number): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < count; i += 1) codes.push((await logIn(app)).statusCode);
  return codes;
}

describe('rate limits shared through Redis (REDIS_URL)', () => {
  let redis: RedisServer;
  let first: FastifyInstance;
  let second: FastifyInstance;

  beforeAll(async () => {
    redis = await startRedis({ stopSignal: 'SIGKILL' });
    first = await buildTestApp({ REDIS_URL: redis.url });
    second = await buildTestApp({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await redis.stop();
  });

  it('counts requests to two servers against one limit', async () => {
    const onFirst = await statuses(first, 20);
    const onSecond = await statuses(second, 20);
    expect(onFirst.every((status) => status === 201)).toBe(true);
    // Each server alone has seen 20 (< 30); together, the 31st request onward is refused.
    expect(onSecond.slice(0, LOGIN_LIMIT - 20).every((status) => status === 201)).toBe(true);
    expect(onSecond.slice(LOGIN_LIMIT - 20)).toEqual(Array(40 - LOGIN_LIMIT).fill(429));
  });

  it('lets requests through while Redis is away, and counts again once it is back', async () => {
    await redis.stop();
    expect(await statuses(first, 3)).toEqual([201, 201, 201]);
    await redis.restart();
    // ioredis reconnects by itself: a request is counted again (the fresh Redis starts at zero).
    for (const app of [first, second]) {
      await expect
        .poll(async () => Number((await logIn(app)).headers['x-ratelimit-remaining']), {
          timeout: 10_000,
        })
        .toBeLessThan(LOGIN_LIMIT);
    }
    const afterwards = await statuses(second, LOGIN_LIMIT + 5);
    expect(afterwards).toContain(429);
  });
});

describe('REDIS_URL that cannot be reached', () => {
  it('stops the start with a message naming it, without its password', async () => {
    const port = await freePort();
    await expect(buildTestApp({ REDIS_URL: `redis://:secret@127.0.0.1:${port}` })).rejects.toThrow(
      new RegExp(`REDIS_URL: cannot reach Redis at 127\\.0\\.0\\.1:${port}`),
    );
    await expect(
      buildTestApp({ REDIS_URL: `redis://:secret@127.0.0.1:${port}` }),
    ).rejects.not.toThrow(/secret/);
  });
});
