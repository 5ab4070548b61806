import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { APP_LINK_CLAIMS_PATH, APP_LINK_HANDOFFS_PATH } from '@guquan/contract/app-link-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { funnelDayOf } from '../funnel/funnel-days.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';

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
async function appLinkCounts(): Promise<Record<string, number>> {
  const db = await openTestDataDirDatabase(temp.dataDir);
  try {
    const rows = await db
      .selectFrom('share_funnel_days')
      .select(['kind', 'item_id', 'channel', 'event', 'count'])
      .where('day', '=', funnelDayOf(new Date()))
      .where('event', 'in', ['link_fallback', 'handoff_minted', 'handoff_claimed'])
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

describe('link fallbacks and handoffs in the share funnel', { timeout: 30_000 }, () => {
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
