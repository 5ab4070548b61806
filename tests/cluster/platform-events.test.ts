import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLATFORM_EVENTS_PATH,
  PLATFORM_EVENTS_PER_DELIVERY,
  type PlatformEvent,
} from '@guquan/contract/platform-events';
import { shareApiPath, sharePagePath } from '@guquan/contract/share-paths';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { newWebhookId, signedHeaders } from '../../apps/server/src/http/signed-deliveries.ts';
import { demoCommunityEvents } from '../../apps/server/src/stand-in/demo-community.ts';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { until } from '../support/wait-until.ts';
import { send, sleep } from './http-client.ts';

/**
 * The platform's events in the production shape (issue 29): signed deliveries sent to either
 * server change what every page shows through nginx (its shared cache on) within 5 s, whichever
 * server answers: the share API, the share page and its card, a new item, a removal.
 */
const GOODS = DEMO_IDS.goods.gallery;
const NEW_GOODS = 'cluster-goods_64-chars-long-id-from-the-platform-0123456789abcde';

/** What nginx's shared cache may keep an answer: what a delivery changed shows after it. */
const PROMISE_MS = 5_000;
/** What the test's own clock and scheduling may add to a measurement. */
const MEASURING_SLACK_MS = 400;

let cluster: Cluster;
let secret = '';
let demoGoods: Extract<PlatformEvent, { type: 'goods.upserted' }>;

beforeAll(async () => {
  cluster = await startCluster({
    instances: 2,
    cache: true,
    serverOutput: process.env.CLUSTER_LOGS ? 'inherit' : 'ignore',
  });
  const platform = cluster.platform;
  if (!platform) throw new Error('the cluster runs no stand-in platform');
  secret = platform.env.PLATFORM_WEBHOOK_SECRETS?.split(',')[0] ?? '';
  const events = demoCommunityEvents({ mediaOrigin: platform.origin });
  const goods = events.find(
    (event): event is typeof demoGoods =>
      event.type === 'goods.upserted' && event.data.id === GOODS,
  );
  if (!goods) throw new Error('no demo goods');
  demoGoods = goods;
  // The demo community arrives from the stand-in after the servers start.
  await until(
    async () => (await send(`${cluster.origin}${shareApiPath('goods', GOODS)}`)).status === 200,
    180_000,
  );
});
afterAll(async () => {
  await (cluster as Cluster | undefined)?.stop();
});

/** Signed by the platform's secret and sent to one server, not through nginx. */
async function deliverTo(server: number, events: PlatformEvent[]) {
  const body = JSON.stringify({ events });
  const response = await send(
    `http://127.0.0.1:${cluster.servers[server]?.port}${PLATFORM_EVENTS_PATH}`,
    { method: 'POST', headers: signedHeaders(secret, newWebhookId(), body, new Date()), body },
  );
  expect(response.status, response.body).toBe(200);
  return performance.now();
}

/**
 * Waits out the promise after a delivery was answered. What is sent after it must see the change,
 * however slow the machine: the test asserts on the promise, not on how fast it was kept (issue 42).
 */
async function afterThePromise(deliveredAt: number): Promise<void> {
  await sleep(Math.max(0, deliveredAt + PROMISE_MS + MEASURING_SLACK_MS - performance.now()));
}

/** Every answer of several in a row through nginx (both servers, the shared cache) passes. */
async function everyAnswer(path: string, check: (status: number, body: string) => boolean) {
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const answer = await send(`${cluster.origin}${path}`, {
      headers: { 'accept-language': 'zh-CN' },
    });
    if (answer.status === 'network-error' || !check(answer.status, answer.body)) return false;
  }
  return true;
}

describe("the platform's events through nginx to either server", () => {
  it('a change sent to one server shows on the API, the page and its card within 5 s', async () => {
    const before = await send(`${cluster.origin}${sharePagePath('goods', GOODS)}`);
    const card = /<meta property="og:image" content="([^"]+)"/.exec(before.body)?.[1];
    expect(card).toBeTruthy();
    const name = `改名之后 ${randomUUID().slice(0, 8)}`;
    const deliveredAt = await deliverTo(0, [
      { type: 'goods.upserted', data: { ...demoGoods.data, version: Date.now(), name } },
    ]);
    await afterThePromise(deliveredAt);
    expect(
      await everyAnswer(shareApiPath('goods', GOODS), (s, b) => s === 200 && b.includes(name)),
    ).toBe(true);
    expect(
      await everyAnswer(
        sharePagePath('goods', GOODS),
        (s, b) => s === 200 && b.includes(name) && card !== undefined && !b.includes(card),
      ),
    ).toBe(true);
  });

  it('a new item sent to the other server answers 404, then its page within 5 s', async () => {
    expect((await send(`${cluster.origin}${sharePagePath('goods', NEW_GOODS)}`)).status).toBe(404);
    const deliveredAt = await deliverTo(1, [
      {
        type: 'goods.upserted',
        data: { ...demoGoods.data, id: NEW_GOODS, version: 1, name: '新来的谷子' },
      },
    ]);
    await afterThePromise(deliveredAt);
    expect(
      await everyAnswer(
        sharePagePath('goods', NEW_GOODS),
        (s, b) => s === 200 && b.includes('新来的谷子'),
      ),
    ).toBe(true);
  });

  it('a delivery of several MB passes nginx to a server (the platform may send 5 MB)', async () => {
    // 500 versions of one goods (the most a delivery holds), each with a long text: about 2.5 MB.
    const text = '长'.repeat(1_600);
    const events = Array.from({ length: PLATFORM_EVENTS_PER_DELIVERY }, (_, index) => ({
      type: 'goods.upserted',
      data: { ...demoGoods.data, version: Date.now() + index, text },
    }));
    const body = JSON.stringify({ events });
    expect(Buffer.byteLength(body)).toBeGreaterThan(2 * 1024 * 1024);
    const response = await send(`${cluster.origin}${PLATFORM_EVENTS_PATH}`, {
      method: 'POST',
      headers: signedHeaders(secret, newWebhookId(), body, new Date()),
      body,
    });
    expect(response.status, response.body).toBe(200);
  });

  it('a removal sent to one server answers 410 everywhere within 5 s', async () => {
    const deliveredAt = await deliverTo(0, [
      { type: 'goods.removed', data: { id: NEW_GOODS, version: 2 } },
    ]);
    await afterThePromise(deliveredAt);
    expect(await everyAnswer(sharePagePath('goods', NEW_GOODS), (s) => s === 410)).toBe(true);
    expect(await everyAnswer(shareApiPath('goods', NEW_GOODS), (s) => s === 410)).toBe(true);
  });
});
