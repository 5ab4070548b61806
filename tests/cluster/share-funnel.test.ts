import { Agent, request } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { EVENTS_PATH } from '@guquan/contract/funnel-events';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { COUNTED_EVENTS_PER_MINUTE } from '../../apps/server/src/funnel/funnel-budget.ts';
import { funnelDayOf } from '../../apps/server/src/funnel/funnel-days.ts';
import { inParallel, send } from './http-client.ts';

/**
 * The share funnel through nginx, two servers sharing PostgreSQL and Redis (issue 27): a
 * link-domain id carrying tabs once stopped all counting on every server it reached (the counter
 * split its key on tabs and the database refused the batch, kept and retried for ever); and the
 * counted events of one address are held to one budget a minute, shared by the servers.
 */
const GOODS = DEMO_IDS.goods.gallery;
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let cluster: Cluster;
let db: pg.Client;
beforeAll(async () => {
  cluster = await startCluster({
    instances: 2,
    cache: false,
    serverOutput: process.env.CLUSTER_LOGS ? 'inherit' : 'ignore',
  });
  db = new pg.Client({ connectionString: cluster.postgres.url() });
  await db.connect();
});
afterAll(async () => {
  // Undefined when the start failed (it cleaned up after itself).
  await (db as pg.Client | undefined)?.end();
  await (cluster as Cluster | undefined)?.stop();
});

/** Today's counts (China time) per item, channel and event, every server's together. */
async function storedToday(): Promise<Record<string, number>> {
  const { rows } = await db.query<{
    kind: string;
    item_id: string;
    channel: string;
    event: string;
    count: number;
  }>('select kind, item_id, channel, event, count from share_funnel_days where day = $1', [
    funnelDayOf(new Date()),
  ]);
  return Object.fromEntries(
    rows.map((row) => [`${row.kind}:${row.item_id}:${row.channel}:${row.event}`, row.count]),
  );
}

function added(after: Record<string, number>, before: Record<string, number>) {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, count]) => [key, count - (before[key] ?? 0)] as const)
      .filter(([, count]) => count !== 0),
  );
}

const linkFallback = (path: string) =>
  send(`${cluster.linkOrigin}${path}`, { redirect: 'manual', headers: { 'user-agent': SAFARI } });

describe('a link-domain id carrying tabs, through nginx to both servers', () => {
  it('is sent on and counted nowhere; both servers keep counting real views', async () => {
    const before = await storedToday();
    // Rounds of each: nginx shares them out between the two servers.
    for (let round = 0; round < 4; round += 1) {
      for (const id of [
        `${GOODS}%09x%09x`,
        `${GOODS}%09wechat%09handoff_claimed`,
        // The audit's 8 kB: the redirect carries it cut short, within nginx's header buffer.
        'x'.repeat(8_000),
      ]) {
        expect((await linkFallback(`/goods/${id}`)).status).toBe(302);
      }
    }
    for (let round = 0; round < 4; round += 1) {
      expect((await linkFallback(`/goods/${GOODS}`)).status).toBe(302);
      const beacon = await send(`${cluster.origin}${EVENTS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'user-agent': SAFARI },
        body: JSON.stringify({ events: [{ event: 'viewed', kind: 'goods', id: GOODS }] }),
      });
      expect(beacon.status).toBe(204);
    }
    await expect
      .poll(async () => added(await storedToday(), before), { timeout: 10_000, interval: 500 })
      .toEqual({
        [`goods:${GOODS}:safari:link_fallback`]: 4,
        [`goods:${GOODS}:safari:viewed`]: 4,
      });
  });
});

describe('link fallbacks from one address, through nginx to both servers', () => {
  it(`count at most ${COUNTED_EVENTS_PER_MINUTE} events a minute, all servers together; every one redirects`, async () => {
    const before = await storedToday();
    // An address of its own (nginx passes the client's on): no other test spent its budget.
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const { hostname, port, host } = new URL(cluster.linkOrigin);
    const fallback = () =>
      new Promise<number>((resolve, reject) => {
        request(
          {
            agent,
            host: hostname === 'localhost' ? '127.0.0.1' : hostname,
            port,
            localAddress: '127.0.0.2',
            path: `/goods/${GOODS}`,
            headers: { host, 'user-agent': SAFARI },
          },
          (response) => {
            response.resume();
            response.on('end', () => {
              resolve(response.statusCode ?? 0);
            });
          },
        )
          .on('error', reject)
          .end();
      });
    const requests = COUNTED_EVENTS_PER_MINUTE + 100;
    try {
      const statuses = await inParallel(requests, 16, fallback);
      expect(statuses.filter((status) => status === 302)).toHaveLength(requests);
    } finally {
      agent.destroy();
    }
    await expect
      .poll(async () => added(await storedToday(), before), { timeout: 10_000, interval: 500 })
      .toEqual({ [`goods:${GOODS}:safari:link_fallback`]: COUNTED_EVENTS_PER_MINUTE });
  });
});
