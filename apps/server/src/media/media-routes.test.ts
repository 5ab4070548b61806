import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { goodsSchema, type Image } from '@guquan/contract/share';
import { IMAGE_WIDTHS, imageUrl, MEDIA_PATH, shareApiPath } from '@guquan/contract/share-paths';
import { dataPaths, type DataPaths } from '../config/data-paths.ts';
import type { Db } from '../db/database.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import {
  SHARED_CACHE_CLOCK_SLACK_SECONDS,
  SHARED_CACHE_PROMISE_SECONDS,
  VERSIONED_ADDRESS_CACHE_CONTROL,
} from '../http/shared-caches.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';

let app: FastifyInstance;
let db: Db;
let paths: DataPaths;
let removeDir: () => Promise<void>;
let gallery: Image[];

beforeAll(async () => {
  const temp = await makeTempDataDir();
  removeDir = temp.remove;
  paths = dataPaths(temp.dataDir);
  app = await buildTestApp({ DATA_DIR: temp.dataDir });
  // A second connection, to find the images the API does not show.
  db = await openTestDataDirDatabase(temp.dataDir);
  const res = await app.inject({ url: shareApiPath('goods', DEMO_IDS.goods.gallery) });
  gallery = goodsSchema.parse(res.json()).images;
});
afterAll(async () => {
  await db.destroy();
  await app.close();
  await removeDir();
});

async function imageOf(table: 'goods' | 'notes', publicId: string): Promise<string> {
  const row =
    table === 'goods'
      ? await db
          .selectFrom('goods')
          .innerJoin('goods_images', 'goods_images.goods_id', 'goods.id')
          .innerJoin('images', 'images.id', 'goods_images.image_id')
          .select('images.public_id')
          .where('goods.public_id', '=', publicId)
          .executeTakeFirstOrThrow()
      : await db
          .selectFrom('notes')
          .innerJoin('note_images', 'note_images.note_id', 'notes.id')
          .innerJoin('images', 'images.id', 'note_images.image_id')
          .select('images.public_id')
          .where('notes.public_id', '=', publicId)
          .executeTakeFirstOrThrow();
  return row.public_id;
}

async function expectNoImage(url: string) {
  const res = await app.inject({ url });
  expect(res.statusCode, url).toBe(404);
  expect(apiErrorSchema.parse(res.json()).error.code).toBe('not_found');
}

function first(): Image {
  const image = gallery[0];
  if (!image) throw new Error('The gallery goods has no image');
  return image;
}

describe('media', () => {
  it('serves every width of the contract as WebP, never wider than the original', async () => {
    const image = first();
    for (const width of IMAGE_WIDTHS) {
      const res = await app.inject({
        url: imageUrl(image.id, width),
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe(VERSIONED_ADDRESS_CACHE_CONTROL);
      // Already compressed: sent as it is.
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(Math.min(width, image.width));
      expect(meta.height).toBe(
        Math.round((image.height / image.width) * Math.min(width, image.width)),
      );
    }
  });

  it('refuses other widths, other formats and anything that is not an image path', async () => {
    const { id } = first();
    for (const file of [
      '100.webp',
      '641.webp',
      '0640.webp',
      '640.png',
      '640',
      '640.webp.webp',
      '-640.webp',
    ]) {
      await expectNoImage(`${MEDIA_PATH}/${id}/${file}`);
    }
    for (const path of [
      id,
      `${id}/`,
      `${id}/640.webp/x`,
      `..%2F..%2Fguquan.sqlite/640.webp`,
      `${id.slice(1)}/640.webp`,
      `${DEMO_IDS.unknown}/640.webp`,
      '',
    ]) {
      await expectNoImage(`${MEDIA_PATH}/${path}`);
    }
    await expectNoImage(MEDIA_PATH);
  });

  it('hides the images of private and removed items, but shows avatars', async () => {
    await expectNoImage(imageUrl(await imageOf('goods', DEMO_IDS.goods.private), 320));
    await expectNoImage(imageUrl(await imageOf('goods', DEMO_IDS.goods.removed), 320));
    await expectNoImage(imageUrl(await imageOf('notes', DEMO_IDS.notes.removed), 320));
    const removedCover = await db
      .selectFrom('cabinets')
      .innerJoin('images', 'images.id', 'cabinets.cover_image_id')
      .select('images.public_id')
      .where('cabinets.public_id', '=', DEMO_IDS.cabinets.removed)
      .executeTakeFirstOrThrow();
    await expectNoImage(imageUrl(removedCover.public_id, 320));

    const goods = goodsSchema.parse(
      (await app.inject({ url: shareApiPath('goods', DEMO_IDS.goods.gallery) })).json(),
    );
    const avatar = goods.owner.avatar;
    expect(avatar).not.toBeNull();
    if (avatar) expect((await app.inject({ url: imageUrl(avatar.id, 160) })).statusCode).toBe(200);
  });

  it("hides a leaving user's pictures during the deletion cool-off, and shows them again after", async () => {
    const image = gallery[0];
    expect(image).toBeDefined();
    const url = imageUrl(image?.id ?? '', 320);
    expect((await app.inject({ url })).statusCode).toBe(200);
    const owner = await db
      .selectFrom('goods')
      .select('owner_id')
      .where('public_id', '=', DEMO_IDS.goods.gallery)
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const request = await db
      .insertInto('account_deletion_requests')
      .values({
        user_id: owner.owner_id,
        requested_at: at,
        deletes_at: at,
        cancelled_at: null,
        cancel_reason: null,
        completed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      await expectNoImage(url);
    } finally {
      await db
        .updateTable('account_deletion_requests')
        .set({ cancelled_at: at, cancel_reason: 'user' })
        .where('id', '=', request.id)
        .execute();
    }
    expect((await app.inject({ url })).statusCode).toBe(200);
  });

  it('resizes once: later requests come from the disk cache, even without the original', async () => {
    const image = gallery[1] ?? first();
    const url = imageUrl(image.id, 160);
    const firstAnswer = await app.inject({ url });
    expect(firstAnswer.statusCode).toBe(200);
    const original = await db
      .selectFrom('images')
      .select('file_name')
      .where('public_id', '=', image.id)
      .executeTakeFirstOrThrow();
    await rm(join(paths.media, original.file_name));
    const second = await app.inject({ url });
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(firstAnswer.rawPayload)).toBe(true);
  });

  it('makes one resize for requests that arrive together, leaving no temporary file', async () => {
    const image = gallery[2] ?? first();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => app.inject({ url: imageUrl(image.id, 480) })),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(answers[0]?.rawPayload ?? Buffer.alloc(0))).toBe(true);
    }
    const folder = join(paths.mediaCache, image.id.slice(0, 2));
    const files = (await readdir(folder)).filter((name) => name.startsWith(image.id));
    expect(files).toEqual([`${image.id}-480.webp`]);
  });

  it('lets shared caches keep an image a few seconds, revalidating with 304 only while it may be seen', async () => {
    const image = gallery[3] ?? first();
    const url = imageUrl(image.id, 320);
    const res = await app.inject({ url });
    const cacheControl = String(res.headers['cache-control']);
    const seconds = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(cacheControl)?.[1]);
    // Browsers a year; shared caches within the promise, nginx's whole seconds included.
    expect(cacheControl).toMatch(/^public, max-age=31536000, immutable, /);
    expect(
      seconds('s-maxage') + seconds('stale-while-revalidate') + SHARED_CACHE_CLOCK_SLACK_SECONDS,
    ).toBeLessThanOrEqual(SHARED_CACHE_PROMISE_SECONDS);
    const etag = String(res.headers.etag);
    const again = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe(cacheControl);
    expect(again.rawPayload.length).toBe(0);
    // Made private: a cache's revalidation gets the refusal, not a 304.
    await db
      .updateTable('goods')
      .set({ visibility: 'private' })
      .where('public_id', '=', DEMO_IDS.goods.gallery)
      .execute();
    try {
      const hidden = await app.inject({ url, headers: { 'if-none-match': etag } });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.headers['cache-control']).toBe('no-store');
    } finally {
      await db
        .updateTable('goods')
        .set({ visibility: 'public' })
        .where('public_id', '=', DEMO_IDS.goods.gallery)
        .execute();
    }
  });

  it('answers HEAD with the headers alone', async () => {
    const res = await app.inject({ method: 'HEAD', url: imageUrl(first().id, 320) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.rawPayload.length).toBe(0);
  });
});
