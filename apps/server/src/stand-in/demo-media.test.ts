import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCommunityEvents, demoPictures } from './demo-community.ts';
import { drawDemoMedia, registerDemoMedia } from './demo-media.ts';

const SCALE = 0.1;
let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stand-in-media-'));
  app = Fastify();
  registerDemoMedia(app, { dir });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the stand-in's media origin", () => {
  it('draws every demo picture once, and leaves them alone the next time', async () => {
    const pictures = demoPictures();
    expect(await drawDemoMedia(dir, SCALE)).toBe(pictures.length);
    expect((await readdir(dir)).sort()).toEqual(pictures.map((picture) => picture.name).sort());
    const before = await stat(join(dir, pictures[0]?.name ?? ''));
    expect(await drawDemoMedia(dir, SCALE)).toBe(0);
    expect((await stat(join(dir, pictures[0]?.name ?? ''))).mtimeMs).toBe(before.mtimeMs);
  });

  it('serves each image an event names, a WebP of the size the event says', async () => {
    await drawDemoMedia(dir, SCALE);
    const origin = 'http://127.0.0.1:4100';
    const events = demoCommunityEvents({ mediaOrigin: origin, imageScale: SCALE });
    const goods = events.find((event) => event.type === 'goods.upserted');
    if (goods?.type !== 'goods.upserted') throw new Error('no goods');
    const image = goods.data.images[0];
    if (!image) throw new Error('no image');
    const response = await app.inject({ url: image.url.slice(origin.length) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    const metadata = await sharp(response.rawPayload).metadata();
    expect(metadata.format).toBe('webp');
    expect([metadata.width, metadata.height]).toEqual([image.width, image.height]);
  });

  it('answers 404 in the error shape for a name it does not serve', async () => {
    for (const url of ['/media/nothing.webp', '/media/..%2Fetc%2Fpasswd', '/media/']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
    }
    const response = await app.inject({ url: '/media/nothing.webp' });
    expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
