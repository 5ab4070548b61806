import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  APP_LINK_CLAIMS_PATH,
  APP_LINK_HANDOFFS_PATH,
  APP_PATH_SEGMENTS,
} from '@guquan/contract/app-link-paths';
import { claimedHandoffSchema, mintedHandoffSchema } from '@guquan/contract/app-links';
import { EVENTS_PATH } from '@guquan/contract/funnel-events';
import { posterApiPath, posterSchema } from '@guquan/contract/poster';
import { shareSchemas } from '@guquan/contract/share';
import {
  imageUrl,
  PUBLIC_ID_MAX_LENGTH,
  shareApiPath,
  sharePagePath,
  type ShareKind,
} from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import type { Db } from './db/database.ts';
import { DEMO_IDS } from './demo/seed/demo-ids.ts';
import { funnelDayOf } from './funnel/funnel-days.ts';
import { operationsOf } from './operations/operations.ts';
import { decodeQrCodes, previewOf } from './test-support/pictures.ts';
import { buildTestApp, makeTempDataDir } from './test-support/test-app.ts';
import { openTestDataDirDatabase } from './test-support/test-engine.ts';
import { EVENTUALLY } from './test-support/eventually.ts';

/**
 * The platform's ids (PRODUCT.md, "The app's platform"): the app's share links carry them, 1 to
 * 64 of `A–Z a–z 0–9 _ -`. Demo items, their owner, images and a comment given such ids (the
 * shortest and the longest) are served at every door an id comes in by: the share API and page,
 * media, the card and the poster, handoffs, the funnel's beacons and the link domain's
 * fallback, on both engines. A 65-character id, or one with any other character, is refused
 * there as a malformed id always was, and counted nowhere.
 */

const LINK = 'link.test';
const LINK_ORIGIN = `http://${LINK}`;
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The longest id the platform may send, every kind of character in it. */
const longest = (prefix: string) => prefix.padEnd(PUBLIC_ID_MAX_LENGTH, '-Az9_');

const GOODS = '7';
const NOTE = longest('note');
const OWNER = longest('user');
const GOODS_IMAGE = 'i';
const NOTE_IMAGE = longest('image');
const COMMENT = longest('comment');

/** An item of each length: the shortest id on goods, the longest on a note. */
const ITEMS: readonly (readonly [ShareKind, string])[] = [
  ['goods', GOODS],
  ['note', NOTE],
];

/** Ids no public id may be: one character too long, and characters outside the set. */
const REFUSED_IDS = [`${NOTE}x`, 'x'.repeat(65), 'no.te', 'Güter', 'a b'];

let app: FastifyInstance;
let db: Db;
let temp: { dataDir: string; remove: () => Promise<void> };

/** Gives a row found by its public id the platform's id instead. */
async function rename(
  table: 'goods' | 'notes' | 'users' | 'images' | 'comments',
  from: string,
  to: string,
) {
  const result = await db
    .updateTable(table)
    .set({ public_id: to })
    .where('public_id', '=', from)
    .executeTakeFirst();
  expect(Number(result.numUpdatedRows), `${table} ${from}`).toBe(1);
}

async function firstImageOf(kind: 'goods' | 'notes', publicId: string): Promise<string> {
  const row =
    kind === 'goods'
      ? await db
          .selectFrom('goods')
          .innerJoin('goods_images', 'goods_images.goods_id', 'goods.id')
          .innerJoin('images', 'images.id', 'goods_images.image_id')
          .select('images.public_id')
          .where('goods.public_id', '=', publicId)
          .orderBy('goods_images.position')
          .executeTakeFirstOrThrow()
      : await db
          .selectFrom('notes')
          .innerJoin('note_images', 'note_images.note_id', 'notes.id')
          .innerJoin('images', 'images.id', 'note_images.image_id')
          .select('images.public_id')
          .where('notes.public_id', '=', publicId)
          .orderBy('note_images.position')
          .executeTakeFirstOrThrow();
  return row.public_id;
}

beforeAll(async () => {
  temp = await makeTempDataDir();
  app = await buildTestApp({
    DATA_DIR: temp.dataDir,
    LINK_ORIGIN,
    TRUST_PROXY: '127.0.0.1',
  });
  db = await openTestDataDirDatabase(temp.dataDir);
  const gallery = DEMO_IDS.goods.gallery;
  const rich = DEMO_IDS.notes.rich;
  const owner = await db
    .selectFrom('goods')
    .innerJoin('users', 'users.id', 'goods.owner_id')
    .select('users.public_id')
    .where('goods.public_id', '=', gallery)
    .executeTakeFirstOrThrow();
  const comment = await db
    .selectFrom('comments')
    .innerJoin('notes', 'notes.id', 'comments.note_id')
    .select('comments.public_id')
    .where('notes.public_id', '=', rich)
    .where('comments.removed_at', 'is', null)
    .orderBy('comments.likes', 'desc')
    .executeTakeFirstOrThrow();
  await rename('images', await firstImageOf('goods', gallery), GOODS_IMAGE);
  await rename('images', await firstImageOf('notes', rich), NOTE_IMAGE);
  await rename('users', owner.public_id, OWNER);
  await rename('comments', comment.public_id, COMMENT);
  await rename('goods', gallery, GOODS);
  await rename('notes', rich, NOTE);
});
afterAll(async () => {
  await db.destroy();
  await app.close();
  await temp.remove();
});

const pagePath = (kind: ShareKind, id?: string) => `${BASE_PATH}${sharePagePath(kind, id)}`;

function expectRefused(response: { statusCode: number; json: () => unknown }, status: number) {
  expect(response.statusCode).toBe(status);
  return apiErrorSchema.parse(response.json()).error.code;
}

/** Today's counts in the funnel, per kind, item, channel and event. */
async function funnelToday(): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('share_funnel_days')
    .select(['kind', 'item_id', 'channel', 'event', 'count'])
    .where('day', '=', funnelDayOf(new Date()))
    .execute();
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

function beacon(events: unknown) {
  return app.inject({
    method: 'POST',
    url: EVENTS_PATH,
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': SAFARI },
    payload: JSON.stringify({ events }),
  });
}

function mint(target: unknown) {
  return app.inject({
    method: 'POST',
    url: APP_LINK_HANDOFFS_PATH,
    headers: { 'user-agent': SAFARI },
    payload: { target },
  });
}

function onLink(path: string) {
  return app.inject({ url: path, headers: { host: LINK, 'user-agent': SAFARI } });
}

describe('the platform’s ids, 1 to 64 characters', { timeout: 120_000 }, () => {
  it('the share API and page show an item by a 1- and a 64-character id, with its owner’s, images’ and comments’ ids', async () => {
    const goods = shareSchemas.goods.parse(
      (await app.inject({ url: shareApiPath('goods', GOODS) })).json(),
    );
    expect(goods).toMatchObject({ id: GOODS, owner: { id: OWNER } });
    expect(goods.images[0]?.id).toBe(GOODS_IMAGE);
    const note = shareSchemas.note.parse(
      (await app.inject({ url: shareApiPath('note', NOTE) })).json(),
    );
    expect(note.id).toBe(NOTE);
    expect(note.images[0]?.id).toBe(NOTE_IMAGE);
    expect(note.topComments.map((comment) => comment.id)).toContain(COMMENT);

    for (const [kind, id] of ITEMS) {
      const page = await app.inject({ url: pagePath(kind, id) });
      expect(page.statusCode, id).toBe(200);
      expect(page.body).toContain(`${pagePath(kind)}?id=${id}&amp;lang=zh-CN`);
    }
    for (const id of [GOODS_IMAGE, NOTE_IMAGE]) {
      const image = await app.inject({ url: imageUrl(id, 320) });
      expect(image.statusCode, id).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
    }
  });

  it('draws the card and the poster, whose QR code carries the whole id', async () => {
    for (const [kind, id] of ITEMS) {
      const preview = await previewOf(app, pagePath(kind, id));
      expect(preview.status).toBe(200);
      expect(preview.path).toContain(`/${kind}/${id}/card.`);
      const card = await app.inject({ url: preview.path });
      expect(card.statusCode, preview.path).toBe(200);
      expect(card.headers['content-type']).toBe('image/jpeg');

      const poster = posterSchema.parse(
        (await app.inject({ url: posterApiPath(kind, id) })).json(),
      );
      const picture = await app.inject({ url: new URL(poster.url, 'http://x').pathname });
      expect(picture.statusCode, poster.url).toBe(200);
      const { width } = await sharp(picture.rawPayload).metadata();
      expect(width).toBe(1080);
      expect(await decodeQrCodes(picture.rawPayload)).toEqual([
        `${LINK_ORIGIN}/${APP_PATH_SEGMENTS[kind]}/${id}`,
      ]);
    }
  });

  it('mints and claims handoffs, counts beacons and link fallbacks, and keeps ids out of the metrics', async () => {
    const before = await funnelToday();
    for (const [kind, id] of ITEMS) {
      const target = kind === 'goods' ? { kind, id, image: 1 } : { kind, id };
      const minted = await mint(target);
      expect(minted.statusCode, id).toBe(201);
      const { code, link } = mintedHandoffSchema.parse(minted.json());
      expect(link).toContain(`/${APP_PATH_SEGMENTS[kind]}/${id}`);
      const claimed = await app.inject({
        method: 'POST',
        url: APP_LINK_CLAIMS_PATH,
        payload: { code, installId: `install-${kind}-0123456789` },
        headers: { 'user-agent': 'GuquanApp/1.0 (iPhone; iOS 17.5)' },
      });
      expect(claimed.statusCode, id).toBe(200);
      expect(claimedHandoffSchema.parse(claimed.json()).target).toEqual(target);

      expect((await beacon([{ event: 'viewed', kind, id }])).statusCode).toBe(204);

      const fallback = await onLink(`/${APP_PATH_SEGMENTS[kind]}/${id}`);
      expect(fallback.statusCode).toBe(302);
      const location = new URL(String(fallback.headers.location));
      expect(location.pathname).toBe(pagePath(kind));
      expect(location.searchParams.get('id')).toBe(id);
    }
    const expected: Record<string, number> = {};
    for (const [kind, id] of ITEMS) {
      for (const event of ['handoff_minted', 'viewed', 'link_fallback']) {
        expected[`${kind}:${id}:safari:${event}`] = 1;
      }
      expected[`${kind}:${id}:other_in_app:handoff_claimed`] = 1;
    }
    await expect.poll(async () => added(await funnelToday(), before), EVENTUALLY).toEqual(expected);

    // The operators read an item's funnel by its id; the metrics never name one.
    const ops = operationsOf(app);
    const today = funnelDayOf(new Date());
    for (const [kind, id] of ITEMS) {
      const funnel = await ops?.inject(
        `/api/funnel?from=${today}&to=${today}&kind=${kind}&id=${id}`,
      );
      expect(funnel?.statusCode, id).toBe(200);
      expect((funnel?.json() as { totals: { viewed: number } }).totals.viewed).toBeGreaterThan(0);
    }
    const metrics = await ops?.inject('/metrics');
    expect(metrics?.statusCode).toBe(200);
    expect(metrics?.body).toContain('guquan_http_request_duration_seconds');
    expect(metrics?.body).not.toContain(NOTE);
    expect(metrics?.body).not.toMatch(/route="[^"]*\/7[/"]/);
  });

  it('refuses a 65-character id, or one with another character, as a malformed one, and counts none', async () => {
    const before = await funnelToday();
    const card = await previewOf(app, pagePath('note', NOTE));
    for (const id of REFUSED_IDS) {
      const encoded = encodeURIComponent(id);
      expect(expectRefused(await app.inject({ url: shareApiPath('note', encoded) }), 400)).toBe(
        'invalid_id',
      );
      const page = await app.inject({ url: `${pagePath('note')}?id=${encoded}` });
      expect(page.statusCode, id).toBe(400);
      expect(expectRefused(await app.inject({ url: imageUrl(encoded, 320) }), 404)).toBe(
        'not_found',
      );
      const otherCard = card.path.replace(`/${NOTE}/`, `/${encoded}/`);
      expect(otherCard).not.toBe(card.path);
      expect(expectRefused(await app.inject({ url: otherCard }), 404)).toBe('not_found');
      expect(expectRefused(await app.inject({ url: posterApiPath('note', encoded) }), 400)).toBe(
        'invalid_id',
      );
      expect((await mint({ kind: 'note', id })).statusCode, id).toBe(400);
      expect((await beacon([{ event: 'viewed', kind: 'note', id }])).statusCode, id).toBe(400);
      // The link domain sends it on to the share page's own 400 state, counted nowhere.
      const fallback = await onLink(`/note/${encoded}`);
      expect(fallback.statusCode).toBe(302);
      expect(new URL(String(fallback.headers.location)).searchParams.get('id')).toBe(id);
    }
    // Something counted after them, so everything before has been written.
    expect((await beacon([{ event: 'viewed', kind: 'goods', id: GOODS }])).statusCode).toBe(204);
    await expect
      .poll(async () => added(await funnelToday(), before), EVENTUALLY)
      .toEqual({ [`goods:${GOODS}:safari:viewed`]: 1 });
  });
});
