import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Db } from '../db/database.ts';
import { VERSIONED_ADDRESS_CACHE_CONTROL } from '../http/shared-caches.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';
import {
  bytesAnswer,
  startMediaHost,
  testImage,
  type MediaHost,
} from '../test-support/media-host.ts';
import { buildTestApp, makeTempDataDir, TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import {
  imageRow,
  insertGoodsWithImages,
  insertWaitingImage,
} from '../test-support/waiting-image-rows.ts';

/**
 * Issue 38, item 3: no server keeps anything only on its own disk
 * (docs/decisions/0029-servers-keep-nothing-of-their-own.md). Two servers on one database, each
 * with media folders of its own: the image fetched by one is served by the other, and by a server
 * whose disk was wiped, from the platform's media host again; while that host is down, the
 * placeholder that nobody keeps.
 */
let temp: Awaited<ReturnType<typeof makeTempDataDir>>;
let host: MediaHost;
let db: Db;
const apps: FastifyInstance[] = [];

function mediaDirs(server: string) {
  return {
    MEDIA_DIR: join(temp.dataDir, server, 'media'),
    MEDIA_CACHE_DIR: join(temp.dataDir, server, 'media-cache'),
  };
}

async function startServer(server: string): Promise<FastifyInstance> {
  const app = await buildTestApp({
    DATA_DIR: temp.dataDir,
    ...TEST_PLATFORM_ENV,
    PLATFORM_MEDIA_ORIGINS: host.origin,
    ...mediaDirs(server),
  });
  apps.push(app);
  return app;
}

async function wipe(server: string): Promise<void> {
  for (const dir of Object.values(mediaDirs(server)))
    await rm(dir, { recursive: true, force: true });
}

/** A goods whose photo (800×600, on the host) the first server has fetched: its row `ready`. */
async function photoFetchedByFirst() {
  host.serve('/photo.jpg', bytesAnswer(await testImage('jpeg', 800, 600)));
  const image = await insertWaitingImage(db, host.url('/photo.jpg'), { width: 800, height: 600 });
  const { goodsPublicId } = await insertGoodsWithImages(db, [image.id]);
  await vi.waitFor(
    async () => {
      expect((await imageRow(db, image.id)).state).toBe('ready');
    },
    { ...EVENTUALLY, interval: 100 },
  );
  return { image, goodsPublicId };
}

beforeEach(async () => {
  temp = await makeTempDataDir();
  host = await startMediaHost();
  db = await openTestDataDirDatabase(temp.dataDir);
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await db.destroy();
  await host.close();
  await temp.remove();
});

it('a server with an empty or wiped disk serves the image another fetched: media and card', async () => {
  const first = await startServer('first');
  const { image, goodsPublicId } = await photoFetchedByFirst();
  expect(host.requests('/photo.jpg')).toBe(1);
  const media = `/anime_merch_web/media/${image.publicId}/640.webp`;
  const fromFirst = await first.inject(media);
  expect(fromFirst.headers['cache-control']).toBe(VERSIONED_ADDRESS_CACHE_CONTROL);

  // A second server, its disk empty: the same image, fetched again from the platform's host.
  const second = await startServer('second');
  const fromSecond = await second.inject(media);
  expect(fromSecond.statusCode).toBe(200);
  expect(fromSecond.headers['cache-control']).toBe(VERSIONED_ADDRESS_CACHE_CONTROL);
  expect(fromSecond.rawPayload.equals(fromFirst.rawPayload)).toBe(true);
  expect(await sharp(fromSecond.rawPayload).metadata()).toMatchObject({ width: 640, height: 480 });
  expect(host.requests('/photo.jpg')).toBe(2);
  expect(await readdir(mediaDirs('second').MEDIA_DIR)).toEqual([
    (await imageRow(db, image.id)).file_name,
  ]);

  // Its disk wiped while it runs: the page's card (drawn from the original) and the media again.
  await wipe('second');
  const page = await second.inject(
    `/anime_merch_web/AppShare/goodsShare?id=${goodsPublicId}&lang=zh-CN`,
  );
  const card = /og:image" content="https?:\/\/[^/]+([^"]+)"/.exec(page.body)?.[1] ?? '';
  const drawn = await second.inject(card);
  expect(drawn.statusCode).toBe(200);
  expect(drawn.headers['content-type']).toBe('image/jpeg');
  expect((await second.inject(media)).rawPayload.equals(fromFirst.rawPayload)).toBe(true);
  // The card fetched the original again; the media then found it on this disk.
  expect(host.requests('/photo.jpg')).toBe(3);
});

it('while the host is down, a server without the original answers the placeholder nobody keeps', async () => {
  await startServer('first');
  const { image, goodsPublicId } = await photoFetchedByFirst();
  host.serve('/photo.jpg', (_request, response) => {
    response.writeHead(503).end();
  });
  const second = await startServer('second');
  const media = `/anime_merch_web/media/${image.publicId}/640.webp`;
  const answer = await second.inject(media);
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toBe('image/webp');
  expect(answer.headers['cache-control']).toMatch(/max-age=0/);
  expect(answer.headers.etag).toBeUndefined();
  expect(await sharp(answer.rawPayload).metadata()).toMatchObject({ width: 640 });
  // A failed fetch is not tried again for every request meanwhile.
  const asked = host.requests('/photo.jpg');
  await second.inject(media);
  expect(host.requests('/photo.jpg')).toBe(asked);
  // The page's card is not drawn without its photo (that lesser card would be kept under the
  // whole one's version): 503, try again soon, and nothing kept.
  const page = await second.inject(
    `/anime_merch_web/AppShare/goodsShare?id=${goodsPublicId}&lang=zh-CN`,
  );
  const card = /og:image" content="https?:\/\/[^/]+([^"]+)"/.exec(page.body)?.[1] ?? '';
  const refused = await second.inject(card);
  expect(refused.statusCode).toBe(503);
  expect(refused.headers['retry-after']).toBe('5');
  const pictures = join(mediaDirs('second').MEDIA_CACHE_DIR, 'pictures');
  expect(await readdir(pictures, { recursive: true }).catch(() => [])).toEqual(
    expect.not.arrayContaining([expect.stringMatching(/\.jpg$/)]),
  );
});
