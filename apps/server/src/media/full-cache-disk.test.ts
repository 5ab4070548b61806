import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodsSchema, type Image } from '@guquan/contract/share';
import { imageUrl, shareApiPath } from '@guquan/contract/share-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { makeFullDisk, type FullDisk } from '../test-support/full-disk.ts';
import { buildTestApp } from '../test-support/test-app.ts';

/**
 * MEDIA_CACHE_DIR on a disk with no space left (a real one: test-support/full-disk.ts). Every
 * resized image used to be a 500 after a full resize; now the visitor gets the image, and the
 * operators one warning.
 */
let disk: FullDisk | undefined;
let app: FastifyInstance;
let gallery: Image[];
const logLines: string[] = [];

beforeAll(async () => {
  const full = await makeFullDisk();
  disk = full;
  app = await buildTestApp(
    // A folder on the full disk that does not exist yet: the server has to make it too.
    { MEDIA_CACHE_DIR: join(full.dir, 'media-cache'), LOG_LEVEL: 'warn' },
    { logStream: { write: (line) => void logLines.push(line) } },
  );
  const res = await app.inject({ url: shareApiPath('goods', DEMO_IDS.goods.gallery) });
  gallery = goodsSchema.parse(res.json()).images;
  // A disk mounted and filled, then a server seeded: seconds on a loaded machine.
});
afterAll(async () => {
  // beforeAll may have failed before either was made.
  await (app as FastifyInstance | undefined)?.close();
  await disk?.remove();
});

describe('a full image-cache disk', () => {
  it('is full: the kernel refuses a new file there', async () => {
    await expect(
      mkdir(join(disk?.dir ?? '', 'x')).then(() => writeFile(join(disk?.dir ?? '', 'x', 'y'), 'z')),
    ).rejects.toMatchObject({ code: 'ENOSPC' });
  });

  it('still serves every resized image, again and again, and warns once', async () => {
    expect(gallery.length).toBeGreaterThan(1);
    for (const round of [1, 2]) {
      for (const image of gallery) {
        for (const width of [160, 320] as const) {
          const res = await app.inject({ url: imageUrl(image.id, width) });
          expect(res.statusCode, `${image.id} ${width} round ${round}`).toBe(200);
          expect(res.headers['content-type']).toBe('image/webp');
          expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
          const metadata = await sharp(res.rawPayload).metadata();
          expect(metadata.format).toBe('webp');
          expect(metadata.width).toBeLessThanOrEqual(width);
        }
      }
    }
    const warnings = logLines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level >= 40)
      // On a loaded machine the demo's seeding, on the test's own connection to the SQLite
      // file, can keep the image fetcher's poll waiting past SQLite's busy timeout: it says so
      // and tries again at the next poll. That is not what this test is about.
      .filter((line) => !line.msg.startsWith('could not look for images to fetch'));
    expect(warnings.map((line) => line.msg)).toEqual([
      expect.stringContaining('cannot write to the image cache') as string,
    ]);
  });
});
