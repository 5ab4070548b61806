import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VERSIONED_ADDRESS_CACHE_CONTROL } from '../http/shared-caches.ts';
import type { Db } from '../db/database.ts';
import {
  bytesAnswer,
  startMediaHost,
  testImage,
  type MediaHost,
} from '../test-support/media-host.ts';
import { buildTestApp, makeTempDataDir, TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';
import {
  imageRow,
  insertGoodsWithImages,
  insertWaitingImage,
} from '../test-support/waiting-image-rows.ts';

// The platform's images in the whole app (docs/decisions/0023-platform-images.md): several
// servers on one database, and what pages, the media route and the pictures show meanwhile.

let temp: Awaited<ReturnType<typeof makeTempDataDir>>;
let host: MediaHost;
let db: Db;
const apps: FastifyInstance[] = [];

function startApp(): Promise<FastifyInstance> {
  return buildTestApp({
    DATA_DIR: temp.dataDir,
    ...TEST_PLATFORM_ENV,
    PLATFORM_MEDIA_ORIGINS: host.origin,
  }).then((app) => {
    apps.push(app);
    return app;
  });
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

describe('images from the platform, with two servers on one database', () => {
  it(
    'fetches each URL once however many items and servers name it',
    { timeout: 120_000 },
    async () => {
      // The first server makes the tables; the second joins them.
      await startApp();
      const paths = ['/shared.jpg', '/a.png', '/b.webp', '/c.avif', '/d.jpg'];
      const formats = ['jpeg', 'png', 'webp', 'avif', 'jpeg'] as const;
      const rows = [];
      for (const [index, path] of paths.entries()) {
        host.serve(path, bytesAnswer(await testImage(formats[index] ?? 'jpeg'), 'image/*', 300));
        rows.push(await insertWaitingImage(db, host.url(path)));
      }
      const [shared, a, b, c, d] = rows.map((row) => row.id) as [
        number,
        number,
        number,
        number,
        number,
      ];
      // One row per URL: three goods showing the same image share it.
      await insertGoodsWithImages(db, [shared, a]);
      await insertGoodsWithImages(db, [b, shared]);
      await insertGoodsWithImages(db, [shared, c, d]);
      await startApp();
      for (const { id } of rows) {
        await vi.waitFor(
          async () => {
            expect((await imageRow(db, id)).state).toBe('ready');
          },
          { ...EVENTUALLY, interval: 100 },
        );
      }
      for (const path of paths) expect(host.requests(path), path).toBe(1);
    },
  );
});

describe('an item whose image is on its way', () => {
  it(
    'shows the placeholder, then the image once it has arrived: page, data, media and card',
    {
      timeout: 30_000,
    },
    async () => {
      const app = await startApp();
      let arrive: () => void = () => undefined;
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      const photo = await testImage('jpeg', 800, 600);
      host.serve('/photo.jpg', async (_request, response) => {
        await arrived;
        response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
      });
      const image = await insertWaitingImage(db, host.url('/photo.jpg'), {
        width: 800,
        height: 600,
      });
      const { goodsPublicId } = await insertGoodsWithImages(db, [image.id]);
      const json = `/anime_merch_web/api/v1/goods/${goodsPublicId}`;
      const page = `/anime_merch_web/AppShare/goodsShare?id=${goodsPublicId}&lang=zh-CN`;
      const media = `/anime_merch_web/media/${image.publicId}/640.webp`;
      const cardOf = (html: string) =>
        /og:image" content="https?:\/\/[^/]+([^"]+)"/.exec(html)?.[1];

      // Meanwhile: the data says so, the page draws the placeholder and asks for no image.
      const waiting = await app.inject(json);
      expect(waiting.statusCode).toBe(200);
      expect(waiting.json()).toMatchObject({
        images: [{ id: image.publicId, width: 800, height: 600, missing: true }],
      });
      const waitingPage = await app.inject(page);
      expect(waitingPage.statusCode).toBe(200);
      expect(waitingPage.body).toMatch(/<svg [^>]*viewBox="0 0 800 600"[^>]*data-placeholder=""/);
      expect(waitingPage.body).not.toContain(`/media/${image.publicId}/`);
      const waitingCard = cardOf(waitingPage.body);
      expect(waitingCard).toMatch(/^\/anime_merch_web\/pictures\/goods\//);
      // An address already handed out answers the placeholder, which nobody keeps.
      const placeholder = await app.inject(media);
      expect(placeholder.statusCode).toBe(200);
      expect(placeholder.headers['content-type']).toBe('image/webp');
      expect(placeholder.headers['cache-control']).toMatch(/max-age=0/);
      expect(placeholder.headers.etag).toBeUndefined();
      // The card is drawn without the photo meanwhile.
      expect((await app.inject(waitingCard ?? '')).statusCode).toBe(200);

      arrive();
      // How late a change may show (5 s) is proven on a controlled clock in
      // pages/share-page-cache.test.ts; here, that the image shows everywhere.
      await vi.waitFor(
        async () => {
          const ready = await app.inject(json);
          expect(ready.json()).toMatchObject({ images: [{ id: image.publicId }] });
          expect(JSON.stringify(ready.json())).not.toContain('missing');
          const readyPage = await app.inject(page);
          expect(readyPage.body).toContain(`/anime_merch_web/media/${image.publicId}/`);
          expect(readyPage.body).not.toContain('data-placeholder');
          expect(cardOf(readyPage.body)).not.toBe(waitingCard);
        },
        { ...EVENTUALLY, interval: 100 },
      );
      const readyCard = cardOf((await app.inject(page)).body) ?? '';
      const card = await app.inject(readyCard);
      expect(card.statusCode).toBe(200);
      expect(card.headers['content-type']).toBe('image/jpeg');
      // The old card's address is no longer current.
      expect((await app.inject(waitingCard ?? '')).statusCode).toBe(404);
      const served = await app.inject(media);
      expect(served.statusCode).toBe(200);
      expect(served.headers['cache-control']).toBe(VERSIONED_ADDRESS_CACHE_CONTROL);
      expect(served.rawPayload.length).not.toBe(placeholder.rawPayload.length);
    },
  );
});
