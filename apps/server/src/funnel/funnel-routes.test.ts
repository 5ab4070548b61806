import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTS_PATH } from '@guquan/contract/funnel-events';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import { operationsOf } from '../operations/operations.ts';
import { funnelDayOf } from './funnel-days.ts';
import { BEACONS_PER_MINUTE } from './funnel-budget.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

/**
 * The share funnel's beacons (POST /api/v1/events), on both engines: what is counted, by which
 * channel, what is refused and changes nothing, bots, made-up items, and the last sums written
 * when the server closes.
 */
const GOODS = DEMO_IDS.goods.gallery;
const NOTE = DEMO_IDS.notes.rich;
const WECHAT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003129) NetType/WIFI Language/zh_CN';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let cleanUp: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanUp.reverse()) await step();
  cleanUp = [];
});

/** A demo server on a data directory this test keeps (to read what was written after it closed). */
async function server(): Promise<{ app: FastifyInstance; dataDir: string }> {
  const temp = await makeTempDataDir();
  cleanUp.push(temp.remove);
  const app = await buildTestApp({ DATA_DIR: temp.dataDir, TRUST_PROXY: '127.0.0.1' });
  // Closing again after a test closed it does nothing.
  cleanUp.push(() => app.close());
  return { app, dataDir: temp.dataDir };
}

function beacon(
  app: FastifyInstance,
  events: unknown,
  { userAgent = SAFARI, from = '203.0.113.7', contentType = 'text/plain;charset=UTF-8' } = {},
) {
  return app.inject({
    method: 'POST',
    url: EVENTS_PATH,
    headers: { 'content-type': contentType, 'user-agent': userAgent, 'x-forwarded-for': from },
    payload: typeof events === 'string' ? events : JSON.stringify(events),
  });
}

/** What the table holds today (China time), per item, channel and event. */
async function storedToday(dataDir: string): Promise<Record<string, number>> {
  const db = await openTestDataDirDatabase(dataDir);
  try {
    const rows = await db
      .selectFrom('share_funnel_days')
      .select(['kind', 'item_id', 'channel', 'event', 'count'])
      .where('day', '=', funnelDayOf(new Date()))
      .execute();
    return Object.fromEntries(
      rows.map((row) => [`${row.kind}:${row.item_id}:${row.channel}:${row.event}`, row.count]),
    );
  } finally {
    await db.destroy();
  }
}

function difference(after: Record<string, number>, before: Record<string, number>) {
  const changed: Record<string, number> = {};
  for (const [key, count] of Object.entries(after)) {
    const delta = count - (before[key] ?? 0);
    if (delta !== 0) changed[key] = delta;
  }
  return changed;
}

describe('POST /api/v1/events', () => {
  it('counts each event per item, channel (from the User-Agent) and day, and writes within a second', async () => {
    const { app, dataDir } = await server();
    const before = await storedToday(dataDir);
    const answer = await beacon(
      app,
      {
        events: [
          { event: 'viewed', kind: 'goods', id: GOODS },
          { event: 'open_tapped', kind: 'goods', id: GOODS },
          { event: 'viewed', kind: 'note', id: NOTE },
        ],
      },
      { userAgent: WECHAT },
    );
    expect(answer.statusCode).toBe(204);
    expect(answer.body).toBe('');
    expect(
      (await beacon(app, { events: [{ event: 'viewed', kind: 'goods', id: GOODS }] })).statusCode,
    ).toBe(204);
    // application/json is taken too (a page that fetches instead of sendBeacon).
    expect(
      (
        await beacon(
          app,
          { events: [{ event: 'link_copied', kind: 'goods', id: GOODS }] },
          { contentType: 'application/json', userAgent: WECHAT },
        )
      ).statusCode,
    ).toBe(204);
    await expect
      .poll(async () => difference(await storedToday(dataDir), before), EVENTUALLY)
      .toEqual({
        [`goods:${GOODS}:wechat:viewed`]: 1,
        [`goods:${GOODS}:wechat:open_tapped`]: 1,
        [`goods:${GOODS}:wechat:link_copied`]: 1,
        [`note:${NOTE}:wechat:viewed`]: 1,
        [`goods:${GOODS}:safari:viewed`]: 1,
      });
    // The operators' JSON adds them up for the day.
    const today = funnelDayOf(new Date());
    const ops = operationsOf(app);
    const funnel = await ops?.inject(
      `/api/funnel?from=${today}&to=${today}&kind=goods&id=${GOODS}`,
    );
    expect(funnel?.statusCode).toBe(200);
    const seeded = Object.entries(before)
      .filter(([key]) => key.startsWith(`goods:${GOODS}:`) && key.endsWith(':viewed'))
      .reduce((sum, [, count]) => sum + count, 0);
    expect((funnel?.json() as { totals: { viewed: number } }).totals.viewed).toBe(seeded + 2);
  });

  it('refuses malformed and oversized beacons (400, 413, 415) and counts nothing of them', async () => {
    const { app, dataDir } = await server();
    const before = await storedToday(dataDir);
    const refusals = [
      [await beacon(app, '{"events": ['), 400],
      [await beacon(app, 'not json'), 400],
      [await beacon(app, { events: [] }), 400],
      [await beacon(app, { events: [{ event: 'purchased', kind: 'goods', id: GOODS }] }), 400],
      [await beacon(app, { events: [{ event: 'viewed', kind: 'user', id: GOODS }] }), 400],
      [await beacon(app, { events: [{ event: 'viewed', kind: 'goods', id: '<script>' }] }), 400],
      // The server's own events are not the page's to report.
      [
        await beacon(app, { events: [{ event: 'handoff_claimed', kind: 'goods', id: GOODS }] }),
        400,
      ],
      [
        await beacon(app, {
          events: [{ event: 'viewed', kind: 'goods', id: GOODS, visitor: 'abc' }],
        }),
        400,
      ],
      [
        await beacon(app, {
          events: Array.from({ length: 11 }, () => ({ event: 'viewed', kind: 'goods', id: GOODS })),
        }),
        400,
      ],
      [
        await beacon(app, {
          events: [{ event: 'viewed', kind: 'goods', id: GOODS }],
          pad: 'x'.repeat(5000),
        }),
        413,
      ],
      [await beacon(app, '<events/>', { contentType: 'application/xml' }), 415],
    ] as const;
    for (const [answer, status] of refusals) {
      expect(answer.statusCode, answer.body).toBe(status);
      const error = apiErrorSchema.parse(answer.json());
      expect(error.error.requestId).toBe(answer.headers['x-request-id']);
    }
    await app.close();
    expect(difference(await storedToday(dataDir), before)).toEqual({});
  });

  it('does not count known bots and crawlers, nor items that do not exist', async () => {
    const { app, dataDir } = await server();
    const before = await storedToday(dataDir);
    const viewed = { events: [{ event: 'viewed', kind: 'goods', id: GOODS }] };
    expect((await beacon(app, viewed, { userAgent: GOOGLEBOT })).statusCode).toBe(204);
    expect((await beacon(app, viewed, { userAgent: 'curl/8.5.0' })).statusCode).toBe(204);
    // Well formed, but nothing of that kind has the id.
    expect(
      (await beacon(app, { events: [{ event: 'viewed', kind: 'goods', id: DEMO_IDS.unknown }] }))
        .statusCode,
    ).toBe(204);
    expect(
      (await beacon(app, { events: [{ event: 'viewed', kind: 'cabinet', id: GOODS }] })).statusCode,
    ).toBe(204);
    await app.close();
    expect(difference(await storedToday(dataDir), before)).toEqual({});
  });

  it('writes what it holds when the server closes (well within the second)', async () => {
    const { app, dataDir } = await server();
    const before = await storedToday(dataDir);
    for (let index = 0; index < 25; index += 1) {
      await beacon(app, { events: [{ event: 'open_tapped', kind: 'note', id: NOTE }] });
    }
    await app.close();
    expect(difference(await storedToday(dataDir), before)).toEqual({
      [`note:${NOTE}:safari:open_tapped`]: 25,
    });
  });

  it(`limits each client to ${BEACONS_PER_MINUTE} beacons a minute`, async () => {
    const { app } = await server();
    const viewed = { events: [{ event: 'viewed', kind: 'goods', id: GOODS }] };
    for (let index = 0; index < BEACONS_PER_MINUTE; index += 1) {
      expect((await beacon(app, viewed, { from: '198.51.100.1' })).statusCode).toBe(204);
    }
    expect((await beacon(app, viewed, { from: '198.51.100.1' })).statusCode).toBe(429);
    expect((await beacon(app, viewed, { from: '198.51.100.2' })).statusCode).toBe(204);
  });
});
