import { createServer, type Server } from 'node:http';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPlatformConfig, type PlatformConfig } from '../config/platform-config.ts';
import { DEMO_COMMUNITY_DELIVERIES_PATH, STAND_IN_ISSUER } from './stand-in-client.ts';
import { TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { receiveDemoCommunityIfEmpty } from './demo-community-arrival.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

let data: TestDatabase;
let standIn: Server;
const asked: number[] = [];
let platform: PlatformConfig;

beforeAll(async () => {
  data = await openTestDatabase({ seed: false });
  // A stand-in that is not ready for the first request (503), then takes it (202).
  standIn = createServer((request, response) => {
    if (request.method === 'POST' && request.url === DEMO_COMMUNITY_DELIVERIES_PATH) {
      asked.push(Date.now());
      response.writeHead(asked.length === 1 ? 503 : 202).end();
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const address = standIn.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const config = readPlatformConfig(TEST_PLATFORM_ENV, 'production').config;
  if (!config) throw new Error('TEST_PLATFORM_ENV is not a platform');
  platform = { ...config, issuer: STAND_IN_ISSUER, apiUrl: `http://127.0.0.1:${port}` };
});
afterAll(async () => {
  await new Promise((resolve) => standIn.close(resolve));
  await data.close();
});

describe('a demo server with an empty copy', () => {
  it('asks the stand-in again when it did not take the request', async () => {
    const app = Fastify();
    expect(
      await receiveDemoCommunityIfEmpty(app, { db: data.db, paths: data.paths, platform }),
    ).toBe(true);
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      await expect.poll(() => asked.length, EVENTUALLY).toBe(2);
      expect((asked[1] ?? 0) - (asked[0] ?? 0)).toBeGreaterThanOrEqual(900);
    } finally {
      await app.close();
    }
  });
});
