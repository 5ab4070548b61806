import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { APP_LINK_CLAIMS_PATH, APP_LINK_HANDOFFS_PATH } from '@guquan/contract/app-link-paths';
import {
  EVENTS_PATH,
  FUNNEL_EVENTS,
  MAX_BEACON_EVENTS,
  type FunnelEvent,
} from '@guquan/contract/funnel-events';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { COUNTED_EVENTS_PER_MINUTE } from '../funnel/funnel-budget.ts';
import { funnelDayOf } from '../funnel/funnel-days.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

/**
 * The link domain's fallbacks and the handoff codes are steps of the share funnel: a server
 * counts them with the pages' own events (app.ts wires them), per item and channel, bots aside.
 */
const LINK = 'link.test';
const GOODS = DEMO_IDS.goods.gallery;
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let app: FastifyInstance;
let temp: { dataDir: string; remove: () => Promise<void> };

/** Today's counts of the link-domain and handoff events (the demo seed fills other days and events). */
async function appLinkCounts(
  dataDir = temp.dataDir,
  events: readonly FunnelEvent[] = ['link_fallback', 'handoff_minted', 'handoff_claimed'],
): Promise<Record<string, number>> {
  const db = await openTestDataDirDatabase(dataDir);
  try {
    const rows = await db
      .selectFrom('share_funnel_days')
      .select(['kind', 'item_id', 'channel', 'event', 'count'])
      .where('day', '=', funnelDayOf(new Date()))
      .where('event', 'in', events)
      .execute();
    return Object.fromEntries(
      rows.map((row) => [`${row.kind}:${row.item_id}:${row.channel}:${row.event}`, row.count]),
    );
  } finally {
    await db.destroy();
  }
}

beforeAll(async () => {
  temp = await makeTempDataDir();
  app = await buildTestApp({ DATA_DIR: temp.dataDir, LINK_ORIGIN: `http://${LINK}` });
});
afterAll(async () => {
  await app.close();
  await temp.remove();
});

describe('link fallbacks and handoffs in the share funnel', () => {
  it('are counted per item and channel; a bot and an item without an id are not', async () => {
    const before = await appLinkCounts();
    const onLink = (url: string, userAgent: string) =>
      app.inject({ url, headers: { host: LINK, 'user-agent': userAgent } });
    expect((await onLink(`/goods/${GOODS}`, SAFARI)).statusCode).toBe(302);
    expect((await onLink(`/goods/${GOODS}`, GOOGLEBOT)).statusCode).toBe(302);
    expect((await onLink('/', SAFARI)).statusCode).toBe(302);
    const minted = await app.inject({
      method: 'POST',
      url: APP_LINK_HANDOFFS_PATH,
      payload: { target: { kind: 'goods', id: GOODS } },
      headers: { 'user-agent': SAFARI },
    });
    expect(minted.statusCode).toBe(201);
    const { code } = minted.json<{ code: string }>();
    for (let claim = 0; claim < 2; claim += 1) {
      const claimed = await app.inject({
        method: 'POST',
        url: APP_LINK_CLAIMS_PATH,
        payload: { code, installId: 'install-0123456789abcdef' },
        headers: { 'user-agent': 'GuquanApp/1.0 (iPhone; iOS 17.5)' },
      });
      expect(claimed.statusCode).toBe(200);
    }
    // The counter writes what it holds when the server closes.
    await app.close();
    const after = await appLinkCounts();
    const added = Object.fromEntries(
      Object.entries(after)
        .map(([key, count]) => [key, count - (before[key] ?? 0)] as const)
        .filter(([, count]) => count !== 0),
    );
    expect(added).toEqual({
      // The app claims: not a browser the table names.
      [`goods:${GOODS}:other_in_app:handoff_claimed`]: 1,
      [`goods:${GOODS}:safari:handoff_minted`]: 1,
      [`goods:${GOODS}:safari:link_fallback`]: 1,
    });
  });
});

/** Today's counts of every event (to see that nothing was forged). */
const allCounts = (dataDir: string) => appLinkCounts(dataDir, FUNNEL_EVENTS);

function added(after: Record<string, number>, before: Record<string, number>) {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, count]) => [key, count - (before[key] ?? 0)] as const)
      .filter(([, count]) => count !== 0),
  );
}

describe('what a visitor can make a server count', () => {
  let server: FastifyInstance;
  let dataDir: string;
  let removeDataDir: () => Promise<void>;
  beforeAll(async () => {
    ({ dataDir, remove: removeDataDir } = await makeTempDataDir());
    server = await buildTestApp({
      DATA_DIR: dataDir,
      LINK_ORIGIN: `http://${LINK}`,
      TRUST_PROXY: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await server.close();
    await removeDataDir();
  });

  const fromAddress = (address: string) => ({
    'user-agent': SAFARI,
    'x-forwarded-for': address,
  });
  const linkFallback = (path: string, address: string) =>
    server.inject({ url: path, headers: { host: LINK, ...fromAddress(address) } });
  const viewed = (address: string, events = 1) =>
    server.inject({
      method: 'POST',
      url: EVENTS_PATH,
      headers: { 'content-type': 'text/plain', ...fromAddress(address) },
      payload: JSON.stringify({
        events: Array.from({ length: events }, () => ({
          event: 'viewed',
          kind: 'goods',
          id: GOODS,
        })),
      }),
    });

  it('never counts a link-domain id that is not a public id, and keeps counting real views', async () => {
    const before = await allCounts(dataDir);
    // Tabs would have moved the rest into the channel and event columns; 8 kB would sit in memory.
    for (const id of [
      `${GOODS}%09x%09x`,
      `${GOODS}%09wechat%09handoff_claimed`,
      `${GOODS}%0Ax`,
      'x'.repeat(8_000),
    ]) {
      const answer = await linkFallback(`/goods/${id}`, '192.0.2.1');
      expect(answer.statusCode).toBe(302);
    }
    expect((await linkFallback(`/goods/${GOODS}`, '192.0.2.1')).statusCode).toBe(302);
    expect((await viewed('192.0.2.1')).statusCode).toBe(204);
    // Written while the server runs (its counter writes every second): nothing held the batch back.
    await expect
      .poll(async () => added(await allCounts(dataDir), before), EVENTUALLY)
      .toEqual({
        [`goods:${GOODS}:safari:link_fallback`]: 1,
        [`goods:${GOODS}:safari:viewed`]: 1,
      });
  });

  it(`counts at most ${COUNTED_EVENTS_PER_MINUTE} events a minute from one address, by every path together`, async () => {
    const before = await allCounts(dataDir);
    const address = '198.51.100.9';
    const beacons = COUNTED_EVENTS_PER_MINUTE / MAX_BEACON_EVENTS - 1;
    for (let index = 0; index < beacons; index += 1)
      expect((await viewed(address, MAX_BEACON_EVENTS)).statusCode).toBe(204);
    // What the beacons left of the budget, and then more: every link still redirects.
    for (let index = 0; index < MAX_BEACON_EVENTS + 5; index += 1)
      expect((await linkFallback(`/goods/${GOODS}`, address)).statusCode).toBe(302);
    const minted = await server.inject({
      method: 'POST',
      url: APP_LINK_HANDOFFS_PATH,
      payload: { target: { kind: 'goods', id: GOODS } },
      headers: fromAddress(address),
    });
    expect(minted.statusCode).toBe(201);
    expect((await viewed(address)).statusCode).toBe(204);
    // Another address has a budget of its own.
    expect((await linkFallback(`/goods/${GOODS}`, '198.51.100.10')).statusCode).toBe(302);
    await expect
      .poll(async () => added(await allCounts(dataDir), before), EVENTUALLY)
      .toEqual({
        [`goods:${GOODS}:safari:viewed`]: beacons * MAX_BEACON_EVENTS,
        [`goods:${GOODS}:safari:link_fallback`]: MAX_BEACON_EVENTS + 1,
      });
  });
});
