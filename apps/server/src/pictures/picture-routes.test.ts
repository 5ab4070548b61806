import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { universalLink } from '@guquan/contract/app-link-paths';
import { posterApiPath, posterSchema } from '@guquan/contract/poster';
import { shareSchemas } from '@guquan/contract/share';
import { shareApiPath, type ShareKind } from '@guquan/contract/share-paths';
import {
  PICTURES_PATH,
  cardContent,
  pictureUrl,
  squareContent,
} from '@guquan/contract/share-pictures';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { dataPaths } from '../config/data-paths.ts';
import type { Db } from '../db/database.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp, makeTempDataDir } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import { decodeQrCodes, previewOf } from '../test-support/pictures.ts';
import { sleep } from '../timing/sleep.ts';

// Pictures are drawn here, several a test: seconds each on a busy machine (the first loads the
// layout engine), past the default 5 s.
vi.setConfig({ testTimeout: 60_000 });

/** The app's link domain this test's server has: posters' QR codes hold links on it. */
const LINK_ORIGIN = 'https://link.guquan.test';

const PAGES: Readonly<Record<ShareKind, string>> = {
  goods: `${BASE_PATH}/AppShare/goodsShare`,
  cabinet: `${BASE_PATH}/AppShare/cabinetShare`,
  note: `${BASE_PATH}/AppShare/notesShare`,
};

const ITEMS: readonly [ShareKind, string][] = [
  ['goods', DEMO_IDS.goods.gallery],
  ['cabinet', DEMO_IDS.cabinets.main],
  ['note', DEMO_IDS.notes.rich],
  ['note', DEMO_IDS.notes.noImages],
];

/** A picture's request should not leave this server's cache rule, nor its format and size. */
async function expectJpeg(app: FastifyInstance, path: string, width: number, height: number) {
  const res = await app.inject({ url: path });
  expect(res.statusCode, path).toBe(200);
  expect(res.headers['content-type']).toBe('image/jpeg');
  expect(res.headers['cache-control']).toBe(
    'public, max-age=31536000, immutable, s-maxage=1, stale-while-revalidate=2',
  );
  const metadata = await sharp(res.rawPayload).metadata();
  expect(metadata.format).toBe('jpeg');
  expect([metadata.width, metadata.height]).toEqual([width, height]);
  return res.rawPayload;
}

async function expectNoPicture(app: FastifyInstance, path: string) {
  const res = await app.inject({ url: path });
  expect(res.statusCode, path).toBe(404);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(apiErrorSchema.parse(res.json()).error.code).toBe('not_found');
}

/** A demo server of its own for a block of tests, with a second connection to change its data. */
function serverForBlock() {
  const server = {} as { app: FastifyInstance; db: Db; dataDir: string };
  let removeDir: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const temp = await makeTempDataDir();
    removeDir = temp.remove;
    server.dataDir = temp.dataDir;
    server.app = await buildTestApp({ DATA_DIR: temp.dataDir, LINK_ORIGIN });
    server.db = await openTestDataDirDatabase(temp.dataDir);
  });
  afterAll(async () => {
    await server.db.destroy();
    await server.app.close();
    await removeDir();
  });
  return server;
}

describe('preview cards, posters and squares', () => {
  const server = serverForBlock();

  it.each(ITEMS)(
    "a %s page's og:image is its 1200×630 card: a JPEG under 300 kB, with size, alt and a large Twitter card",
    async (kind, id) => {
      for (const language of ['zh-CN', 'en'] as const) {
        const preview = await previewOf(server.app, `${PAGES[kind]}?id=${id}&lang=${language}`);
        expect(preview.status).toBe(200);
        expect(preview.path).toMatch(
          new RegExp(`^${PICTURES_PATH}/${kind}/${id}/card\\.${language}\\.[0-9a-z]{22}\\.jpg$`),
        );
        expect([preview.width, preview.height]).toEqual(['1200', '630']);
        expect(preview.twitterCard).toBe('summary_large_image');
        expect(preview.twitterImage).toBe(`http://127.0.0.1:8080${preview.path}`);
        const item = shareSchemas[kind].parse(
          (await server.app.inject({ url: shareApiPath(kind, id) })).json(),
        );
        const title = 'name' in item ? item.name : item.title;
        expect(preview.alt).toContain(title);
        const card = await expectJpeg(server.app, preview.path, 1200, 630);
        expect(card.length).toBeLessThan(300_000);
      }
    },
  );

  it.each([
    ['goods', DEMO_IDS.goods.private],
    ['goods', DEMO_IDS.goods.removed],
    ['cabinet', DEMO_IDS.cabinets.private],
    ['note', DEMO_IDS.notes.removed],
    ['note', DEMO_IDS.unknown],
    ['note', 'not.an.id'],
  ] as const)(
    'a %s page that cannot show its item (%s) has the one neutral card, which names nothing',
    async (kind, id) => {
      const preview = await previewOf(server.app, `${PAGES[kind]}?id=${id}&lang=zh-CN`);
      expect(preview.status).toBeGreaterThanOrEqual(400);
      expect(preview.path).toMatch(
        new RegExp(`^${PICTURES_PATH}/neutral/card\\.zh-CN\\.[0-9a-z]{22}\\.jpg$`),
      );
      expect(preview.path).not.toContain(id);
      expect(preview.alt).toBe('谷圈分享卡片');
      expect(preview.twitterCard).toBe('summary_large_image');
      await expectJpeg(server.app, preview.path, 1200, 630);
      const other = await previewOf(
        server.app,
        `${PAGES.goods}?id=${DEMO_IDS.goods.removed}&lang=zh-CN`,
      );
      expect(other.path).toBe(preview.path);
    },
  );

  it('the poster: its address from the API, a 1080×1440 JPEG whose QR code a camera reads as the item’s Universal Link', async () => {
    for (const [kind, id] of ITEMS) {
      for (const language of ['zh-CN', 'en'] as const) {
        const res = await server.app.inject({ url: `${posterApiPath(kind, id)}?lang=${language}` });
        expect(res.statusCode).toBe(200);
        const poster = posterSchema.parse(res.json());
        expect(poster.url).toMatch(
          new RegExp(`^${PICTURES_PATH}/${kind}/${id}/poster\\.${language}\\.[0-9a-z]{22}\\.jpg$`),
        );
        expect(poster).toMatchObject({ width: 1080, height: 1440 });
        expect(poster.alt).toContain(language === 'en' ? 'QR code' : '二维码');
        const image = await expectJpeg(server.app, poster.url, 1080, 1440);
        // As a phone's camera sees a poster shown on another phone, or printed postcard-size: the
        // whole poster about 360 pixels wide, its QR code under a hundred.
        for (const width of [1080, 360]) {
          const seen = await sharp(image).resize({ width }).png().toBuffer();
          expect(await decodeQrCodes(seen), `${kind} ${id} at ${width} px`).toEqual([
            universalLink(LINK_ORIGIN, { kind, id }),
          ]);
        }
      }
    }
  }, 120_000);

  it('a poster for an item nobody may see is refused as the item is', async () => {
    const refused = await server.app.inject({
      url: posterApiPath('goods', DEMO_IDS.goods.private),
    });
    expect(refused.statusCode).toBe(403);
    expect(apiErrorSchema.parse(refused.json()).error.code).toBe('private');
    const removed = await server.app.inject({
      url: posterApiPath('cabinet', DEMO_IDS.cabinets.removed),
    });
    expect(removed.statusCode).toBe(410);
    const invalid = await server.app.inject({ url: posterApiPath('note', 'no.pe') });
    expect(invalid.statusCode).toBe(400);
  });

  it("WeChat's square: the first picture cut square, as a JPEG; the app's mark for an item without pictures", async () => {
    for (const [kind, id] of ITEMS) {
      const item = shareSchemas[kind].parse(
        (await server.app.inject({ url: shareApiPath(kind, id) })).json(),
      );
      const url = pictureUrl(squareContent(kind, item));
      if (id === DEMO_IDS.notes.noImages) expect(url).toContain(`${PICTURES_PATH}/neutral/square.`);
      await expectJpeg(server.app, url, 300, 300);
    }
  });

  it('answers only the current address: a wrong version, an odd file name or another id is no picture', async () => {
    const { path } = await previewOf(
      server.app,
      `${PAGES.goods}?id=${DEMO_IDS.goods.gallery}&lang=en`,
    );
    const stale = path.replace(/\.([0-9a-z]{22})\.jpg$/, '.0000000000000000000000.jpg');
    await expectNoPicture(server.app, stale);
    await expectNoPicture(server.app, path.replace('.jpg', '.png'));
    await expectNoPicture(server.app, path.replace('card.en', 'card.fr'));
    await expectNoPicture(server.app, path.replace('card.en', 'poster.en'));
    await expectNoPicture(server.app, path.replace(DEMO_IDS.goods.gallery, DEMO_IDS.goods.noPrice));
    await expectNoPicture(server.app, path.replace('/goods/', '/cabinet/'));
    await expectNoPicture(
      server.app,
      `${PICTURES_PATH}/neutral/poster.en.0000000000000000000000.jpg`,
    );
    await expectNoPicture(
      server.app,
      `${PICTURES_PATH}/goods/${DEMO_IDS.goods.gallery}/${'card.en.'.repeat(9)}jpg`,
    );
    await expectNoPicture(server.app, PICTURES_PATH);
  });

  it('keeps each picture on disk and serves it again without drawing, answers If-None-Match with a 304', async () => {
    const { path } = await previewOf(
      server.app,
      `${PAGES.note}?id=${DEMO_IDS.notes.hostile}&lang=en`,
    );
    await expectJpeg(server.app, path, 1200, 630);
    const file = join(
      dataPaths(server.dataDir).mediaCache,
      'pictures',
      'note',
      DEMO_IDS.notes.hostile.slice(0, 2),
      DEMO_IDS.notes.hostile,
      path.split('/').at(-1) ?? '',
    );
    const kept = await stat(file);
    const again = await server.app.inject({ url: path });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.length).toBe(kept.size);
    expect((await stat(file)).mtimeMs).toBe(kept.mtimeMs);
    const etag = again.headers.etag;
    expect(etag).toMatch(/^"[0-9a-z]{22}"$/);
    const revalidated = await server.app.inject({
      url: path,
      headers: { 'if-none-match': String(etag) },
    });
    expect(revalidated.statusCode).toBe(304);
  });
});

describe('a change takes the old pictures down within a second', () => {
  const server = serverForBlock();

  const page = `${PAGES.goods}?id=${DEMO_IDS.goods.wanted}&lang=zh-CN`;

  it('an edit gives a new address and retires the old one (and its file)', async () => {
    const before = await previewOf(server.app, page);
    await expectJpeg(server.app, before.path, 1200, 630);
    await server.db
      .updateTable('goods')
      .set({ name: '改过名字的谷子' })
      .where('public_id', '=', DEMO_IDS.goods.wanted)
      .execute();
    await sleep(1_100);
    const after = await previewOf(server.app, page);
    expect(after.path).not.toBe(before.path);
    expect(after.alt).toContain('改过名字的谷子');
    await expectNoPicture(server.app, before.path);
    await expectJpeg(server.app, after.path, 1200, 630);
    const folder = join(
      dataPaths(server.dataDir).mediaCache,
      'pictures',
      'goods',
      DEMO_IDS.goods.wanted.slice(0, 2),
      DEMO_IDS.goods.wanted,
    );
    expect(await readdir(folder)).toEqual([after.path.split('/').at(-1)]);
  });

  it('made private: the card, the poster and the square stop at once, the page shows the neutral card', async () => {
    const card = (await previewOf(server.app, page)).path;
    const poster = posterSchema.parse(
      (await server.app.inject({ url: posterApiPath('goods', DEMO_IDS.goods.wanted) })).json(),
    ).url;
    const item = shareSchemas.goods.parse(
      (await server.app.inject({ url: shareApiPath('goods', DEMO_IDS.goods.wanted) })).json(),
    );
    const square = pictureUrl(squareContent('goods', item));
    for (const path of [card, poster, square]) await expectJpeg(server.app, path, ...sizeOf(path));
    await server.db
      .updateTable('goods')
      .set({ visibility: 'private' })
      .where('public_id', '=', DEMO_IDS.goods.wanted)
      .execute();
    await sleep(1_100);
    for (const path of [card, poster, square]) await expectNoPicture(server.app, path);
    expect((await previewOf(server.app, page)).path).toContain(`${PICTURES_PATH}/neutral/`);
    // Public again: the same content, the same addresses, served again.
    await server.db
      .updateTable('goods')
      .set({ visibility: 'public' })
      .where('public_id', '=', DEMO_IDS.goods.wanted)
      .execute();
    await sleep(1_100);
    expect((await previewOf(server.app, page)).path).toBe(card);
    await expectJpeg(server.app, card, 1200, 630);
  });

  it('removed: gone', async () => {
    const card = (await previewOf(server.app, page)).path;
    await server.db
      .updateTable('goods')
      .set({ removed_at: new Date().toISOString() })
      .where('public_id', '=', DEMO_IDS.goods.wanted)
      .execute();
    await sleep(1_100);
    await expectNoPicture(server.app, card);
  });

  it('the card follows what it shows, not what it does not: likes change nothing', async () => {
    const id = DEMO_IDS.goods.noPrice;
    const item = shareSchemas.goods.parse(
      (await server.app.inject({ url: shareApiPath('goods', id) })).json(),
    );
    const url = pictureUrl(cardContent('goods', item, 'en'));
    await server.db
      .updateTable('goods')
      .set({ likes: item.likes + 1 })
      .where('public_id', '=', id)
      .execute();
    await sleep(1_100);
    const preview = await previewOf(server.app, `${PAGES.goods}?id=${id}&lang=en`);
    expect(preview.path).toBe(url);
  });
});

function sizeOf(path: string): [number, number] {
  if (path.includes('/poster.')) return [1080, 1440];
  if (path.includes('/square.')) return [300, 300];
  return [1200, 630];
}

describe('cold drawings are limited per client', () => {
  it('past the limit a client gets 429 for a new picture, while pictures already made still come', async () => {
    const temp = await makeTempDataDir();
    const app = await buildTestApp({ DATA_DIR: temp.dataDir }, { pictureDrawingsPerMinute: 2 });
    try {
      const paths = [];
      for (const language of ['zh-CN', 'en'] as const)
        for (const id of [DEMO_IDS.goods.gallery, DEMO_IDS.goods.noPrice])
          paths.push((await previewOf(app, `${PAGES.goods}?id=${id}&lang=${language}`)).path);
      const [first = '', second = '', third = ''] = paths;
      await expectJpeg(app, first, 1200, 630);
      await expectJpeg(app, second, 1200, 630);
      const refused = await app.inject({ url: third });
      expect(refused.statusCode).toBe(429);
      expect(apiErrorSchema.parse(refused.json()).error.code).toBe('too_many_requests');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Made before: no drawing, no limit.
      await expectJpeg(app, first, 1200, 630);
      // Another client has its own allowance.
      const other = await app.inject({ url: third, remoteAddress: '192.0.2.7' });
      expect(other.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
