import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EVENTS_PATH } from '@guquan/contract/funnel-events';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import { openTestDataDirDatabase, testDatabaseFor } from '../test-support/test-engine.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

/**
 * Counts are exact: 10,000 beacons sent over 64 connections to two servers sharing one
 * PostgreSQL, each adding up in memory and writing once a second, are 10,000 in the table.
 */
const BEACONS = 10_000;
const CONNECTIONS_PER_SERVER = 32;
/** Beacons come from this many addresses per server (nginx's X-Forwarded-For), under the limit. */
const CLIENTS = 100;
const ITEM = DEMO_IDS.cabinets.main;
const BODY = JSON.stringify({ events: [{ event: 'open_tapped', kind: 'cabinet', id: ITEM }] });

let servers: FastifyInstance[] = [];
let dataDir = '';
const cleanUp: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const first = await makeTempDataDir();
  const second = await makeTempDataDir();
  cleanUp.push(first.remove, second.remove);
  dataDir = first.dataDir;
  const database = await testDatabaseFor(first.dataDir);
  if (database.engine !== 'postgres') throw new Error('runs on PostgreSQL only');
  const shared = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '4', TRUST_PROXY: '127.0.0.1' };
  // The first seeds the database; the second finds it done.
  servers = [
    await buildTestApp({ DATA_DIR: first.dataDir, ...shared }),
    await buildTestApp({ DATA_DIR: second.dataDir, ...shared }),
  ];
  for (const server of servers) await server.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const step of cleanUp.reverse()) await step();
});

async function storedOpens(): Promise<number> {
  const db = await openTestDataDirDatabase(dataDir);
  try {
    const row = await db
      .selectFrom('share_funnel_days')
      .select((eb) => eb.fn.sum<string | number>('count').as('total'))
      .where('kind', '=', 'cabinet')
      .where('item_id', '=', ITEM)
      .where('event', '=', 'open_tapped')
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  } finally {
    await db.destroy();
  }
}

function post(port: number, agent: Agent, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: EVENTS_PATH,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          'content-length': Buffer.byteLength(BODY),
          'user-agent':
            'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
          'x-forwarded-for': from,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          resolve(response.statusCode ?? 0);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(BODY);
  });
}

it(`counts ${BEACONS} beacons sent over ${CONNECTIONS_PER_SERVER * 2} connections to two servers exactly`, async () => {
  const before = await storedOpens();
  const sockets = new Set<unknown>();
  const sends = servers.flatMap((server, serverIndex) => {
    const { port } = server.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS_PER_SERVER });
    agent.on('free', (socket) => sockets.add(socket));
    return Array.from({ length: BEACONS / servers.length }, (_, index) =>
      post(port, agent, `10.${serverIndex}.${index % CLIENTS}.1`).finally(() => {
        if (index === BEACONS / servers.length - 1) agent.destroy();
      }),
    );
  });
  const statuses = await Promise.all(sends);
  expect(statuses.filter((status) => status !== 204)).toEqual([]);
  expect(sockets.size).toBeLessThanOrEqual(CONNECTIONS_PER_SERVER * 2);
  // Each server writes within a second; closing writes whatever is left.
  await expect.poll(storedOpens, { ...EVENTUALLY, interval: 500 }).toBe(before + BEACONS);
  for (const server of servers) await server.close();
  expect(await storedOpens()).toBe(before + BEACONS);
}, 180_000);
