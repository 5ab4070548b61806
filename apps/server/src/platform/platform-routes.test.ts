import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShareItems } from '@guquan/contract/share';
import { sharePagePath, shareApiPath, type ShareKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import type { Db } from '../db/database.ts';
import {
  cabinetEvent,
  deliver,
  designEvent,
  goodsEvent,
  noteEvent,
  pid,
  removal,
  signedHeaders,
  testImage,
  userEvent,
} from '../test-support/platform-deliveries.ts';
import { SHARE_REUSE_SECONDS } from '../shares/recent-share-reads.ts';
import { buildTestApp, makeTempDataDir, TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';

let app: FastifyInstance;
let db: Db;
let removeDataDir: () => Promise<void>;

beforeAll(async () => {
  const temp = await makeTempDataDir();
  // Production: an empty copy, and the platform's settings of TEST_PLATFORM_ENV.
  app = await buildTestApp({
    APP_MODE: 'production',
    PUBLIC_ORIGIN: 'https://www.example.com',
    DATA_DIR: temp.dataDir,
  });
  db = await openTestDataDirDatabase(temp.dataDir);
  removeDataDir = temp.remove;
});
afterAll(async () => {
  await app.close();
  await db.destroy();
  await removeDataDir();
});

function read<K extends ShareKind>(
  kind: K,
  id: string,
): Promise<{ status: number; item: ShareItems[K] | undefined }> {
  return app.inject({ method: 'GET', url: shareApiPath(kind, id) }).then((response) => ({
    status: response.statusCode,
    item: response.statusCode === 200 ? response.json<ShareItems[K]>() : undefined,
  }));
}

async function applied(events: unknown[]) {
  const response = await deliver(app, events);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ReturnType<typeof answer>>();
}

/** A delivery's answer: nothing waiting, the ignored ones by reason (none unless given). */
function answer(
  applied: number,
  because: Partial<Record<'not_newer' | 'unknown_type' | 'account_deleted', number>> = {},
) {
  const ignoredBecause = { not_newer: 0, unknown_type: 0, account_deleted: 0, ...because };
  const ignored = Object.values(ignoredBecause).reduce((sum, n) => sum + n, 0);
  return { applied, waiting: 0, ignored, ignoredBecause };
}

/** Row counts of every table a delivery writes: a refused one changes none. */
async function snapshot() {
  const tables = [
    'users',
    'images',
    'goods',
    'goods_images',
    'cabinets',
    'cabinet_goods',
    'notes',
    'comments',
    'designs',
    'platform_versions',
    'platform_waiting',
    'platform_deliveries',
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.count);
  }
  return counts;
}

describe('platform events: each type', () => {
  const owner = pid('ua', 1);
  const commenter = pid('ua', 2);
  const goods = pid('ga', 1);
  const cabinet = pid('ca', 1);
  const note = pid('na', 1);
  const design = pid('da', 1);

  it('writes users, goods, cabinets, notes and designs the share pages read', async () => {
    const result = await applied([
      userEvent(owner, 1, {
        phone: '+8613800138000',
        points: 1234,
        deletionBlockers: [
          { kind: 'appeal_open', title: 'My appeal', since: '2026-11-02T10:00:00+08:00' },
        ],
      }),
      userEvent(commenter, 1, { avatar: null }),
      goodsEvent(goods, 1, owner),
      cabinetEvent(cabinet, 1, owner, [goods]),
      noteEvent(note, 1, owner, [commenter, owner]),
      designEvent(design, 1, owner),
    ]);
    expect(result).toEqual(answer(6));

    const shownGoods = await read('goods', goods);
    expect(shownGoods.status).toBe(200);
    expect(shownGoods.item).toMatchObject({
      id: goods,
      name: 'goods 001 v1',
      priceFen: 3500,
      status: 'selling',
      owner: { id: owner, nickname: 'user 001' },
      images: [{ width: 800, height: 600, alt: `goods-${goods}` }],
      createdAt: '2026-11-01T00:00:00.000Z',
    });
    const shownCabinet = await read('cabinet', cabinet);
    expect(shownCabinet.item?.items.map((item) => item.id)).toEqual([goods]);
    const shownNote = await read('note', note);
    expect(shownNote.item).toMatchObject({ comments: 42, title: 'note 001' });
    expect(shownNote.item?.topComments.map((comment) => comment.author.id)).toEqual([
      commenter,
      owner,
    ]);

    const user = await db
      .selectFrom('users')
      .select(['points', 'phone_encrypted', 'phone_index'])
      .where('public_id', '=', owner)
      .executeTakeFirstOrThrow();
    expect(user.points).toBe(1234);
    expect(user.phone_encrypted).not.toContain('13800138000');
    expect(user.phone_index).not.toBeNull();
    const cases = await db
      .selectFrom('account_cases')
      .innerJoin('users', 'users.id', 'account_cases.user_id')
      .select(['kind', 'title', 'status', 'opened_at'])
      .where('users.public_id', '=', owner)
      .execute();
    expect(cases).toEqual([
      {
        kind: 'appeal_open',
        title: 'My appeal',
        status: 'open',
        opened_at: '2026-11-02T02:00:00.000Z',
      },
    ]);
    const designRow = await db
      .selectFrom('designs')
      .select(['title', 'price_points', 'retired_at'])
      .where('public_id', '=', design)
      .executeTakeFirstOrThrow();
    expect(designRow).toEqual({ title: 'design 001', price_points: 100, retired_at: null });
    // New images wait for the media fetcher, with no file yet.
    const image = await db
      .selectFrom('images')
      .select(['state', 'file_name'])
      .where('source_url', '=', testImage(`goods-${goods}`).url)
      .executeTakeFirstOrThrow();
    expect(image).toEqual({ state: 'waiting', file_name: '' });
  });

  it('closes a blocker the platform no longer lists, retires an unavailable design', async () => {
    await applied([
      userEvent(owner, 2, { points: 5, deletionBlockers: [] }),
      designEvent(design, 2, owner, { available: false }),
    ]);
    const cases = await db
      .selectFrom('account_cases')
      .innerJoin('users', 'users.id', 'account_cases.user_id')
      .select(['status'])
      .where('users.public_id', '=', owner)
      .execute();
    expect(cases).toEqual([{ status: 'closed' }]);
    const designRow = await db
      .selectFrom('designs')
      .select('retired_at')
      .where('public_id', '=', design)
      .executeTakeFirstOrThrow();
    expect(designRow.retired_at).not.toBeNull();
  });

  it('answers 410 for a removed goods, cabinet and note, and an older upsert keeps it removed', async () => {
    await applied([
      removal('goods.removed', goods, 5),
      removal('cabinet.removed', cabinet, 5),
      removal('note.removed', note, 5),
      removal('design.removed', design, 5),
    ]);
    expect((await read('goods', goods)).status).toBe(410);
    expect((await read('cabinet', cabinet)).status).toBe(410);
    expect((await read('note', note)).status).toBe(410);
    expect(await applied([goodsEvent(goods, 4, owner)])).toEqual(answer(0, { not_newer: 1 }));
    expect((await read('goods', goods)).status).toBe(410);
    // A newer version from the platform brings it back.
    await applied([goodsEvent(goods, 6, owner)]);
    expect((await read('goods', goods)).status).toBe(200);
  });

  it('user.deleted anonymizes the account and takes its items and what waits for it', async () => {
    const leaving = pid('ub', 1);
    const item = pid('gb', 1);
    const waitingGoods = pid('gb', 2);
    const stranger = pid('ub', 9);
    await applied([
      userEvent(leaving, 1, { phone: '+8613900139000' }),
      goodsEvent(item, 1, leaving),
    ]);
    // Its cabinet names goods of a user not received yet: it waits for them.
    await applied([goodsEvent(waitingGoods, 1, stranger)]);
    expect((await read('goods', item)).status).toBe(200);
    const result = await applied([
      removal('user.deleted', leaving, 2),
      removal('user.deleted', stranger, 1),
    ]);
    expect(result).toEqual(answer(2));
    // Gone with its owner, for good.
    expect((await read('goods', item)).status).toBe(410);
    const users = await db
      .selectFrom('users')
      .select(['nickname', 'phone_encrypted', 'deleted_at', 'public_id'])
      .where('deleted_at', 'is not', null)
      .execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ nickname: '已注销用户', phone_encrypted: null });
    expect(users[0]?.public_id).not.toBe(leaving);
    const waiting = await db
      .selectFrom('platform_waiting')
      .select('public_id')
      .where('public_id', '=', waitingGoods)
      .execute();
    expect(waiting).toEqual([]);
    // No upsert brings the account back, older or newer than the deletion.
    expect(await applied([userEvent(leaving, 1)])).toEqual(answer(0, { account_deleted: 1 }));
    expect(await applied([userEvent(leaving, 3)])).toEqual(answer(0, { account_deleted: 1 }));
  });
});

describe('platform events: order and what has not arrived', () => {
  it('keeps the highest version whatever the order, within and across deliveries', async () => {
    const owner = pid('uc', 1);
    const goods = pid('gc', 1);
    await applied([userEvent(owner, 1)]);
    expect(await applied([goodsEvent(goods, 3, owner), goodsEvent(goods, 2, owner)])).toEqual(
      answer(1, { not_newer: 1 }),
    );
    expect(await applied([goodsEvent(goods, 1, owner)])).toEqual(answer(0, { not_newer: 1 }));
    expect(await applied([goodsEvent(goods, 3, owner)])).toEqual(answer(0, { not_newer: 1 }));
    expect((await read('goods', goods)).item?.name).toBe('goods 001 v3');
  });

  it('keeps goods of an unknown owner out of view (404) until the owner arrives', async () => {
    const owner = pid('ud', 1);
    const goods = pid('gd', 1);
    const note = pid('nd', 1);
    const commenter = pid('ud', 2);
    await applied([goodsEvent(goods, 1, owner), noteEvent(note, 1, pid('ud', 3), [commenter])]);
    expect((await read('goods', goods)).status).toBe(404);
    expect((await read('note', note)).status).toBe(404);
    await applied([userEvent(owner, 1)]);
    expect((await read('goods', goods)).item?.owner.id).toBe(owner);
    // The note names two users: it waits until both are here.
    await applied([userEvent(pid('ud', 3), 1)]);
    expect((await read('note', note)).status).toBe(404);
    await applied([userEvent(commenter, 1)]);
    expect((await read('note', note)).status).toBe(200);
    expect(
      await db
        .selectFrom('platform_waiting')
        .select('public_id')
        .where('public_id', 'in', [goods, note])
        .execute(),
    ).toEqual([]);
  });

  it('shows a cabinet with the goods it has, and the rest as they arrive', async () => {
    const owner = pid('ue', 1);
    const otherOwner = pid('ue', 2);
    const [first, second, third] = [pid('ge', 1), pid('ge', 2), pid('ge', 3)];
    const cabinet = pid('ce', 1);
    await applied([
      userEvent(owner, 1),
      goodsEvent(first, 1, owner),
      cabinetEvent(cabinet, 1, owner, [third, first, second]),
    ]);
    expect((await read('cabinet', cabinet)).item?.items.map((i) => i.id)).toEqual([first]);
    // `third` arrives with an owner not received yet: still out of the list.
    await applied([goodsEvent(third, 1, otherOwner), goodsEvent(second, 1, owner)]);
    expect((await read('cabinet', cabinet)).item?.items.map((i) => i.id)).toEqual([first, second]);
    await applied([userEvent(otherOwner, 1)]);
    expect((await read('cabinet', cabinet)).item?.items.map((i) => i.id)).toEqual([
      third,
      first,
      second,
    ]);
  });

  it('shows a note without the comment of a deleted user, and drops goods of one', async () => {
    const author = pid('ul', 1);
    const gone = pid('ul', 2);
    const note = pid('nl', 1);
    const goods = pid('gl', 1);
    await applied([userEvent(author, 1), removal('user.deleted', gone, 1)]);
    await applied([noteEvent(note, 1, author, [gone, author]), goodsEvent(goods, 1, gone)]);
    const shown = await read('note', note);
    expect(shown.item?.topComments.map((comment) => comment.author.id)).toEqual([author]);
    expect((await read('goods', goods)).status).toBe(404);
    const waiting = await db
      .selectFrom('platform_waiting')
      .select('public_id')
      .where('public_id', 'in', [note, goods])
      .execute();
    expect(waiting).toEqual([]);
  });

  it('writes a comment two notes of one delivery name once, under the note named last', async () => {
    const author = pid('um', 1);
    const [first, second] = [pid('nm', 1), pid('nm', 2)];
    const comment = {
      id: pid('cm', 1),
      authorId: author,
      text: 'moved',
      likes: 1,
      createdAt: '2026-11-01T08:00:00+08:00',
    };
    const response = await deliver(app, [
      userEvent(author, 1),
      noteEvent(first, 1, author, [], { topComments: [comment] }),
      noteEvent(second, 1, author, [], { topComments: [comment] }),
    ]);
    expect(response.statusCode).toBe(200);
    expect((await read('note', first)).item?.topComments).toEqual([]);
    expect((await read('note', second)).item?.topComments.map((shown) => shown.text)).toEqual([
      'moved',
    ]);
  });

  it('ignores and counts a type it does not know, and fields it does not know', async () => {
    const owner = pid('uf', 1);
    const result = await applied([
      { type: 'badge.awarded', data: { id: 'x' } },
      { ...userEvent(owner, 1), extra: true },
    ]);
    expect(result).toEqual(answer(1, { unknown_type: 1 }));
  });
});

describe('platform events: refusals change nothing', () => {
  const owner = pid('ug', 1);
  const goods = pid('gg', 1);
  const events = [userEvent(owner, 1), goodsEvent(goods, 1, owner)];
  const body = JSON.stringify({ events });
  const url = '/anime_merch_web/api/v1/platform/events';

  async function refused(send: () => ReturnType<typeof deliver>, status: number, message?: RegExp) {
    const before = await snapshot();
    const response = await send();
    expect(response.statusCode, response.body).toBe(status);
    const error = response.json<{ error: { code: string; message: string } }>().error;
    if (message) expect(error.message).toMatch(message);
    expect(await snapshot()).toEqual(before);
    return error;
  }

  it('refuses a missing, wrong, stale or future signature with 401', async () => {
    await refused(
      () =>
        app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: body,
        }),
      401,
    );
    await refused(
      () => deliver(app, events, { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` }),
      401,
    );
    await refused(() => deliver(app, events, { at: new Date(Date.now() - 6 * 60_000) }), 401);
    await refused(() => deliver(app, events, { at: new Date(Date.now() + 6 * 60_000) }), 401);
    // A body changed after signing (whitespace only) is not the body signed.
    const signed = await import('../test-support/platform-deliveries.ts').then((m) =>
      m.signedHeaders(body),
    );
    await refused(
      () => app.inject({ method: 'POST', url, headers: signed, payload: `${body} ` }),
      401,
    );
  });

  it('refuses a bad shape, a bad id, too many events and an image elsewhere with 400, naming the place', async () => {
    await refused(() => deliver(app, '{"events": ['), 400, /^\(body\)/);
    await refused(() => deliver(app, [{ type: 'goods.upserted' }]), 400, /^events\[0\]\.data/);
    await refused(
      () => deliver(app, [userEvent(owner, 1), goodsEvent(goods, 1, owner, { priceFen: -1 })]),
      400,
      /^events\[1\]\.data\.priceFen/,
    );
    await refused(() => deliver(app, [userEvent('bad id!', 1)]), 400, /^events\[0\]\.data\.id/);
    await refused(() => deliver(app, []), 400, /^events/);
    await refused(
      () =>
        deliver(
          app,
          Array.from({ length: 501 }, (_, i) => userEvent(pid('uh', i), 1)),
        ),
      400,
      /^events:/,
    );
    await refused(
      () =>
        deliver(app, [
          userEvent(owner, 1),
          goodsEvent(goods, 1, owner, {
            images: [testImage('a'), { ...testImage('b'), url: 'https://elsewhere.example/b.jpg' }],
          }),
        ]),
      400,
      /^events\[1\]\.data\.images\[1\]\.url/,
    );
  });

  it('refuses a body that is not UTF-8 with 400 invalid_encoding, however it is signed', async () => {
    // One byte of a three-byte character in a nickname, then an ASCII digit.
    const [head, tail] = JSON.stringify({ events: [userEvent(owner, 3)] }).split('"nickname":"');
    const bytes = Buffer.concat([
      Buffer.from(`${head}"nickname":"`),
      Buffer.from([0xe8, 0x30]),
      Buffer.from(tail ?? ''),
    ]);
    // Signed over the bytes sent, as Standard Webhooks asks (the library would sign their text).
    const id = 'msg_not_utf8';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const key = Buffer.from(
      (TEST_PLATFORM_ENV.PLATFORM_WEBHOOK_SECRETS ?? '').replace(/^whsec_/, ''),
      'base64',
    );
    const mac = createHmac('sha256', key)
      .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), bytes]))
      .digest('base64');
    const headers = {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${mac}`,
    };
    const error = await refused(
      () => app.inject({ method: 'POST', url, headers, payload: bytes }),
      400,
      /^\(body\): is not valid UTF-8$/,
    );
    expect(error.code).toBe('invalid_encoding');
    // Signed over its text, as the library does: refused the same, not stored with U+FFFD.
    const library = await refused(
      () =>
        app.inject({
          method: 'POST',
          url,
          headers: signedHeaders(bytes.toString('utf8')),
          payload: bytes,
        }),
      400,
    );
    expect(library.code).toBe('invalid_encoding');
  });

  it('refuses a body past 5 MB with 413', async () => {
    const big = JSON.stringify({ events, padding: 'x'.repeat(5 * 1024 * 1024) });
    await refused(() => deliver(app, big), 413);
  });

  it('answers a repeated webhook-id with the first answer, changing nothing', async () => {
    const first = await deliver(app, events, { webhookId: 'msg_repeat_1' });
    expect(first.json()).toEqual(answer(2));
    const before = await snapshot();
    const again = await deliver(app, [goodsEvent(goods, 9, owner)], { webhookId: 'msg_repeat_1' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(answer(2));
    expect(await snapshot()).toEqual(before);
    expect((await read('goods', goods)).item?.name).toBe('goods 001 v1');
  });
});

describe('platform events: deliveries at once', () => {
  it('applies parallel deliveries of the same entities whole, the newest versions winning', async () => {
    const owner = pid('ui', 1);
    const ids = Array.from({ length: 5 }, (_, i) => pid('gi', i));
    const deliveries = Array.from({ length: 8 }, (_, n) => [
      userEvent(owner, n + 1, { nickname: `owner v${n + 1}` }),
      ...ids.map((id) => goodsEvent(id, n + 1, owner)),
      cabinetEvent(pid('ci', 1), n + 1, owner, ids),
    ]);
    // The same webhook-id twice at once too: applied once.
    const responses = await Promise.all([
      ...deliveries.map((events) => deliver(app, events)),
      deliver(app, deliveries[0] ?? [], { webhookId: 'msg_twice' }),
      deliver(app, deliveries[0] ?? [], { webhookId: 'msg_twice' }),
    ]);
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    for (const id of ids) {
      expect((await read('goods', id)).item?.name).toMatch(/ v8$/);
    }
    const cabinet = await read('cabinet', pid('ci', 1));
    expect(cabinet.item?.owner.nickname).toBe('owner v8');
    expect(cabinet.item?.items).toHaveLength(5);
    const twice = await db
      .selectFrom('platform_deliveries')
      .select('webhook_id')
      .where('webhook_id', '=', 'msg_twice')
      .execute();
    expect(twice).toHaveLength(1);
  });
});

describe('platform events: what pages show', () => {
  it('shows a change on the share page and its card within 5 s', async () => {
    const owner = pid('uj', 1);
    const goods = pid('gj', 1);
    await applied([userEvent(owner, 1), goodsEvent(goods, 1, owner, { name: 'First name' })]);
    const page = () =>
      app
        .inject({ method: 'GET', url: `${BASE_PATH}${sharePagePath('goods', goods)}` })
        .then((response) => response.body);
    const card = (html: string) => /property="og:image" content="([^"]+)"/.exec(html)?.[1];
    const before = await page();
    expect(before).toContain('First name');
    await applied([goodsEvent(goods, 2, owner, { name: 'Second name' })]);
    // On a clock the test moves, not a wall clock: the origin's part of the 5 s is its reuse
    // window (pages/page-cache-policy.ts); the shared caches' part is in their headers.
    vi.useFakeTimers({ toFake: ['Date'] });
    let after: string;
    try {
      vi.setSystemTime(Date.now() + SHARE_REUSE_SECONDS * 1000 + 1);
      after = await page();
    } finally {
      vi.useRealTimers();
    }
    expect(after).toContain('Second name');
    expect(card(after)).toBeDefined();
    expect(card(after)).not.toBe(card(before));
  });
});

describe('platform events: rate limit', () => {
  it('refuses an address past 600 deliveries a minute with 429, in the error shape', async () => {
    const limited = await buildTestApp({
      APP_MODE: 'production',
      PUBLIC_ORIGIN: 'https://www.example.com',
    });
    try {
      const unsigned = () =>
        limited.inject({
          method: 'POST',
          url: '/anime_merch_web/api/v1/platform/events',
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        });
      for (let sent = 0; sent < 600; sent += 1) expect((await unsigned()).statusCode).toBe(401);
      const refused = await unsigned();
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ error: { code: string } }>().error.code).toBe('too_many_requests');
    } finally {
      await limited.close();
    }
  });
});
