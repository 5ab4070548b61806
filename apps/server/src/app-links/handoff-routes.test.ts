import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APP_LINK_CLAIMS_PATH,
  APP_LINK_HANDOFFS_PATH,
  HANDOFF_CODE_PATTERN,
} from '@guquan/contract/app-link-paths';
import type { Db } from '../db/database.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import type { AppLinkEvent } from './app-link-events.ts';
import { HANDOFF_LIMITS } from './handoff-routes.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

const LINK_ORIGIN = 'https://link.guquan.test';
const GOODS = DEMO_IDS.goods.gallery;
const INSTALL = 'install-0123456789abcdef';

let app: FastifyInstance;
let db: Db;
let temp: { dataDir: string; remove: () => Promise<void> };
const events: [AppLinkEvent, string | null][] = [];
/** Every test's requests come from an address of their own, so the per-client limits stay apart. */
let clientNumber = 0;
let client = '';

function nextClient(): string {
  clientNumber += 1;
  client = `10.0.${Math.floor(clientNumber / 250)}.${clientNumber % 250}`;
  return client;
}

beforeAll(async () => {
  temp = await makeTempDataDir();
  app = await buildTestApp(
    { DATA_DIR: temp.dataDir, LINK_ORIGIN },
    {
      countAppLinkEvent: (event, kind) => {
        events.push([event, kind]);
        return Promise.resolve();
      },
    },
  );
  db = await openTestDataDirDatabase(temp.dataDir);
});
afterAll(async () => {
  await db.destroy();
  await app.close();
  await temp.remove();
});
afterEach(() => {
  vi.useRealTimers();
  events.length = 0;
  nextClient();
});

function mint(target: unknown, headers: Record<string, string> = {}, from = client) {
  return app.inject({
    method: 'POST',
    url: APP_LINK_HANDOFFS_PATH,
    payload: { target },
    headers,
    remoteAddress: from,
  });
}

function claim(body: unknown, from = client) {
  return app.inject({
    method: 'POST',
    url: APP_LINK_CLAIMS_PATH,
    payload: body as object,
    remoteAddress: from,
  });
}

async function mintedCode(
  target: unknown = { kind: 'goods', id: GOODS, image: 2 },
): Promise<string> {
  const response = await mint(target, {}, nextClient());
  expect(response.statusCode).toBe(201);
  return response.json<{ code: string }>().code;
}

describe('minting a handoff code', () => {
  it('answers a code of 60 random bits, the item’s Universal Link and when it expires, 7 days on', async () => {
    nextClient();
    const before = Date.now();
    const response = await mint({ kind: 'goods', id: GOODS, image: 2 });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const minted = response.json<{ code: string; link: string; expiresAt: string }>();
    expect(minted.code).toMatch(HANDOFF_CODE_PATTERN);
    expect(minted.link).toBe(`${LINK_ORIGIN}/goods/${GOODS}?image=2`);
    const expires = Date.parse(minted.expiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(7 * 24 * 3600 * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(7 * 24 * 3600 * 1000 + 60_000);
    expect(events).toEqual([['handoff_minted', 'goods']]);
    // Codes do not repeat (and do not follow from one another).
    const codes = new Set([minted.code]);
    for (let index = 0; index < 10; index += 1) codes.add(await mintedCode());
    expect(codes.size).toBe(11);
  });

  it('stores the target and times only: nothing about who asked', async () => {
    nextClient();
    const response = await mint(
      { kind: 'note', id: DEMO_IDS.notes.rich },
      {
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5) FingerprintMe/1.0',
        cookie: 'tracking=cookie-value-123',
        'x-forwarded-for': '203.0.113.77',
      },
    );
    const { code, link } = response.json<{ code: string; link: string }>();
    expect(link).toBe(`${LINK_ORIGIN}/note/${DEMO_IDS.notes.rich}`);
    const rows = await db.selectFrom('app_link_handoffs').selectAll().execute();
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      [
        'code_digest',
        'created_at',
        'expires_at',
        'id',
        'target_id',
        'target_image',
        'target_kind',
      ].sort(),
    );
    const stored = JSON.stringify(rows);
    for (const seen of [code, client, 'FingerprintMe', 'cookie-value-123', '203.0.113.77'])
      expect(stored).not.toContain(seen);
  });

  it('refuses what is not an item, changing nothing', async () => {
    nextClient();
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('app_link_handoffs')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const target of [
      undefined,
      {},
      { kind: 'user', id: GOODS },
      { kind: 'goods', id: 'x'.repeat(65) },
      { kind: 'goods', id: 'not.an.id' },
      { kind: 'goods', id: GOODS, image: -1 },
      { kind: 'goods', id: GOODS, image: 1.5 },
      { kind: 'goods', id: GOODS, image: 100 },
    ]) {
      const response = await mint(target);
      expect(response.statusCode, JSON.stringify(target)).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'bad_request' } });
    }
    expect(await count()).toBe(before);
    expect(events).toEqual([]);
  });

  it('keeps an image for goods only', async () => {
    const code = await mintedCode({ kind: 'cabinet', id: DEMO_IDS.cabinets.main, image: 3 });
    const claimed = await claim({ code, installId: INSTALL }, nextClient());
    expect(claimed.json()).toEqual({
      target: { kind: 'cabinet', id: DEMO_IDS.cabinets.main },
      appPath: `cabinet/${DEMO_IDS.cabinets.main}`,
    });
  });

  it('limits each client', async () => {
    nextClient();
    for (let index = 0; index < HANDOFF_LIMITS.mintsPerClientPerMinute; index += 1)
      expect((await mint({ kind: 'goods', id: GOODS })).statusCode).toBe(201);
    expect((await mint({ kind: 'goods', id: GOODS })).statusCode).toBe(429);
    expect((await mint({ kind: 'goods', id: GOODS }, {}, nextClient())).statusCode).toBe(201);
  });
});

describe('claiming a code', () => {
  it('answers where the app opens, and counts the claim', async () => {
    const code = await mintedCode();
    events.length = 0;
    const response = await claim({ code, installId: INSTALL }, nextClient());
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      target: { kind: 'goods', id: GOODS, image: 2 },
      appPath: `goods/${GOODS}?image=2`,
    });
    expect(events).toEqual([['handoff_claimed', 'goods']]);
    // As found on the clipboard, whatever a keyboard did to its case.
    expect((await claim({ code: ` ${code.toLowerCase()} `, installId: INSTALL })).statusCode).toBe(
      200,
    );
  });

  it('the same install claiming again counts once; another install counts again', async () => {
    const code = await mintedCode();
    events.length = 0;
    nextClient();
    for (let index = 0; index < 3; index += 1)
      expect((await claim({ code, installId: INSTALL })).statusCode).toBe(200);
    expect(events).toEqual([['handoff_claimed', 'goods']]);
    expect((await claim({ code, installId: 'another-install-0123456789' })).statusCode).toBe(200);
    expect(events).toHaveLength(2);
    // The install id itself is nowhere: only a digest that needs the code too.
    const stored = JSON.stringify(await db.selectFrom('app_link_claims').selectAll().execute());
    expect(stored).not.toContain(INSTALL);
    expect(stored).not.toContain(code);
  });

  it('claims of one code by one install at once count once', async () => {
    const code = await mintedCode();
    events.length = 0;
    const installId = 'parallel-install-0123456789';
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => claim({ code, installId }, `10.9.9.${index}`)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(12).fill(200));
    expect(events).toEqual([['handoff_claimed', 'goods']]);
  });

  it('400 for a malformed code or install id, 404 for an unknown code', async () => {
    nextClient();
    for (const body of [
      {},
      { code: 'AB12CD34EF56' },
      { code: 'AB12CD34EF5', installId: INSTALL },
      { code: 'AB12CD34EF5I', installId: INSTALL },
      { code: 'AB12CD34EF56', installId: 'short' },
      { code: 'AB12CD34EF56', installId: 'has spaces in it 0123' },
    ])
      expect((await claim(body)).statusCode, JSON.stringify(body)).toBe(400);
    const unknown = await claim({ code: 'AB12CD34EF56', installId: INSTALL });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('410 once the 7 days are over', async () => {
    const code = await mintedCode();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 7 * 24 * 3600 * 1000 + 1000);
    const response = await claim({ code, installId: INSTALL }, nextClient());
    expect(response.statusCode).toBe(410);
    expect(response.json()).toMatchObject({ error: { code: 'expired' } });
  });

  it('limits each client’s guesses', async () => {
    nextClient();
    for (let index = 0; index < HANDOFF_LIMITS.claimsPerClientPerMinute; index += 1)
      expect((await claim({ code: 'AB12CD34EF56', installId: INSTALL })).statusCode).toBe(404);
    expect((await claim({ code: 'AB12CD34EF56', installId: INSTALL })).statusCode).toBe(429);
  });

  it('limits the guesses of all clients together: once the misses are spent, nobody’s claim is looked up', async () => {
    // A minute of its own, far from the other tests' (the counters keep time by the clock).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 30 * 24 * 3600 * 1000);
    const code = await mintedCode();
    // Spread over many addresses, as a scan would be, under each one's own limit.
    const misses = HANDOFF_LIMITS.missesPerMinute + 1;
    const perClient = HANDOFF_LIMITS.claimsPerClientPerMinute - 1;
    const outcomes: number[] = [];
    for (let sent = 0; sent < misses; sent += perClient) {
      const from = nextClient();
      const batch = Math.min(perClient, misses - sent);
      const answers = await Promise.all(
        Array.from({ length: batch }, (_, index) =>
          claim(
            { code: `ZZZZZZZZ${String(sent + index).padStart(4, '0')}`, installId: INSTALL },
            from,
          ),
        ),
      );
      outcomes.push(...answers.map((answer) => answer.statusCode));
    }
    expect(outcomes.filter((status) => status === 404).length).toBeGreaterThanOrEqual(
      HANDOFF_LIMITS.missesPerMinute,
    );
    // A real code from a fresh client: not looked up now (a hit would show through otherwise).
    const limited = await claim({ code, installId: INSTALL }, nextClient());
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // A minute later the code space answers again.
    vi.setSystemTime(Date.now() + 61_000);
    expect((await claim({ code, installId: INSTALL }, nextClient())).statusCode).toBe(200);
  });

  it('answers at most the ceiling of misses however many guesses are in flight at once', async () => {
    // A minute of its own (the counters keep time by the clock).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60 * 24 * 3600 * 1000);
    const code = await mintedCode();
    // 1,800 wrong claims all sent before any is answered, from 72 addresses, 25 each: every one
    // within its own client's limit, so only the ceiling stands between them and the database.
    const guesses = 1_800;
    const perClient = 25;
    const clients = Array.from({ length: guesses / perClient }, () => nextClient());
    const answers = await Promise.all(
      Array.from({ length: guesses }, (_, index) =>
        claim(
          { code: `YYYYYYYY${String(index).padStart(4, '0')}`, installId: INSTALL },
          clients[Math.floor(index / perClient)],
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 404).length).toBe(HANDOFF_LIMITS.missesPerMinute);
    expect(statuses.filter((status) => status === 429).length).toBe(
      guesses - HANDOFF_LIMITS.missesPerMinute,
    );
    // Spent: a real code is not looked up either, until the minute is over.
    expect((await claim({ code, installId: INSTALL }, nextClient())).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await claim({ code, installId: INSTALL }, nextClient())).statusCode).toBe(200);
  });

  it('hits, many at once among the guesses, are answered and leave the misses of the minute whole', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 90 * 24 * 3600 * 1000);
    const code = await mintedCode();
    const guess = (index: number, from: string) =>
      claim({ code: `XXXXXXXX${String(index).padStart(4, '0')}`, installId: INSTALL }, from);
    const hit = (index: number, from: string) =>
      claim({ code, installId: `hitting-install-${String(index).padStart(6, '0')}` }, from);
    const statusesOf = async (answers: Promise<{ statusCode: number }>[]) =>
      (await Promise.all(answers)).map((answer) => answer.statusCode);
    // 250 hits and 300 misses in flight together, within the ceiling: every one answered.
    const hitters = Array.from({ length: 10 }, () => nextClient());
    const guessers = Array.from({ length: 30 }, () => nextClient());
    const [hits, misses] = await Promise.all([
      statusesOf(Array.from({ length: 250 }, (_, index) => hit(index, hitters[index % 10] ?? ''))),
      statusesOf(
        Array.from({ length: 300 }, (_, index) => guess(index, guessers[index % 30] ?? '')),
      ),
    ]);
    expect(hits).toEqual(Array(250).fill(200));
    expect(misses).toEqual(Array(300).fill(404));
    // The hits gave back what they took: 300 misses are left in this minute, not 50.
    const more = Array.from({ length: 30 }, () => nextClient());
    expect(
      await statusesOf(
        Array.from({ length: 299 }, (_, index) => guess(1000 + index, more[index % 30] ?? '')),
      ),
    ).toEqual(Array(299).fill(404));
    // With one miss left, hit after hit is answered, and the miss is still there afterwards.
    for (let index = 0; index < 3; index += 1)
      expect((await hit(500 + index, nextClient())).statusCode).toBe(200);
    expect((await guess(2000, nextClient())).statusCode).toBe(404);
    // Now spent: a guess and a real code alike wait for the next minute.
    expect((await guess(2001, client)).statusCode).toBe(429);
    expect((await hit(600, client)).statusCode).toBe(429);
  });

  it('codes go a week after they expire: claims of them with them', async () => {
    const count = async () =>
      (await db.selectFrom('app_link_handoffs').select('code_digest').execute()).length;
    // Past the minute the test above spent (the counters keep time by the clock).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 120 * 24 * 3600 * 1000);
    const claimed = await mintedCode();
    await mintedCode();
    expect((await claim({ code: claimed, installId: INSTALL }, nextClient())).statusCode).toBe(200);
    expect(await count()).toBeGreaterThanOrEqual(2);
    const claims = await db.selectFrom('app_link_claims').selectAll().execute();
    expect(claims.length).toBeGreaterThan(0);
    // Two months on, the next mint sweeps (at most hourly): every code above is past its week.
    vi.setSystemTime(Date.now() + 60 * 24 * 3600 * 1000);
    await mintedCode();
    await vi.waitFor(async () => {
      expect(await count()).toBe(1);
    }, EVENTUALLY);
    expect(await db.selectFrom('app_link_claims').selectAll().execute()).toEqual([]);
  });
});
