import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCommunityEvents } from './demo-community.ts';
import { demoMediaDir } from './demo-media.ts';
import { startStandInPlatform, type StandInPlatform } from './stand-in-platform.ts';

const SCALE = 0.1;
let dataDir: string;
let standIn: StandInPlatform;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'stand-in-media-'));
  standIn = await startStandInPlatform({ dataDir, imageScale: SCALE });
});
afterAll(async () => {
  await standIn.close();
  await rm(dataDir, { recursive: true, force: true });
});

function imagesOfTheCommunity() {
  return demoCommunityEvents({ mediaOrigin: standIn.origin, imageScale: SCALE }).flatMap(
    (event) => {
      switch (event.type) {
        case 'user.upserted':
          return event.data.avatar ? [event.data.avatar] : [];
        case 'goods.upserted':
        case 'note.upserted':
          return event.data.images;
        case 'cabinet.upserted':
          return [event.data.cover];
        case 'design.upserted':
          return [event.data.preview];
        default:
          return [];
      }
    },
  );
}

describe("the stand-in's media origin", () => {
  it('serves every image the demo events name: a WebP of the size they say', async () => {
    const images = imagesOfTheCommunity();
    for (const image of images) {
      const response = await fetch(image.url);
      expect(response.status, image.url).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([metadata.format, metadata.width, metadata.height], image.url).toEqual([
        'webp',
        image.width,
        image.height,
      ]);
    }
    // Drawn once each, kept in the stand-in's folder.
    expect(await readdir(demoMediaDir(dataDir, SCALE))).toHaveLength(images.length);
  });

  it('draws a picture once when many ask for it at the same time', async () => {
    const [image] = imagesOfTheCommunity();
    if (!image) throw new Error('no image');
    await rm(demoMediaDir(dataDir, SCALE), { recursive: true, force: true });
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () =>
        Buffer.from(await (await fetch(image.url)).arrayBuffer()),
      ),
    );
    for (const answer of answers) expect(answer.equals(answers[0] ?? Buffer.alloc(0))).toBe(true);
    expect(await readdir(demoMediaDir(dataDir, SCALE))).toEqual([
      image.url.slice(image.url.lastIndexOf('/') + 1),
    ]);
  });

  it('answers 404 in the error shape for a name it does not serve', async () => {
    for (const path of ['/media/nothing.webp', '/media/..%2Fstand-in%2Fsecrets.json']) {
      const response = await fetch(`${standIn.origin}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });
});
