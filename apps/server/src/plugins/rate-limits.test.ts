import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_LINK_HANDOFFS_PATH } from '@guquan/contract/app-link-paths';
import { HANDOFF_LIMITS } from '../app-links/handoff-routes.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { freePort, startRedis, type RedisServer } from '../../../../tests/support/redis-server.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

/** A share page's handoff codes: 20 per minute per address (handoff-routes.ts). */
const LIMIT = HANDOFF_LIMITS.mintsPerClientPerMinute;

function mint(app: FastifyInstance) {
  return app.inject({
    method: 'POST',
    url: APP_LINK_HANDOFFS_PATH,
    payload: { target: { kind: 'goods', id: DEMO_IDS.goods.gallery } },
  });
}

async function statuses(app: FastifyInstance, count: number): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < count; i += 1) codes.push((await mint(app)).statusCode);
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
    const onFirst = await statuses(first, 15);
    const onSecond = await statuses(second, 15);
    expect(onFirst.every((status) => status === 201)).toBe(true);
    // Each server alone has seen 15 (< 20); together, the 21st request onward is refused.
    expect(onSecond.slice(0, LIMIT - 15).every((status) => status === 201)).toBe(true);
    expect(onSecond.slice(LIMIT - 15)).toEqual(Array(30 - LIMIT).fill(429));
  });

  it('lets requests through while Redis is away, and counts again once it is back', async () => {
    await redis.stop();
    expect(await statuses(first, 3)).toEqual([201, 201, 201]);
    await redis.restart();
    // ioredis reconnects by itself: a request is counted again (the fresh Redis starts at zero).
    for (const app of [first, second]) {
      await expect
        .poll(async () => Number((await mint(app)).headers['x-ratelimit-remaining']), EVENTUALLY)
        .toBeLessThan(LIMIT);
    }
    const afterwards = await statuses(second, LIMIT + 5);
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
