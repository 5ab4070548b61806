import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredImage } from './media-repository.ts';
import { createResizedImages } from './resized-images.ts';

let root: string;
const image: StoredImage = {
  publicId: 'AbCdEfGhIjKlMnOp',
  width: 1600,
  height: 1200,
  fileName: 'a.png',
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'guquan-resized-'));
  await mkdir(join(root, 'media'));
  // Noise, so the resize takes a moment and the WebP is large enough to be caught half written.
  const { width, height } = image;
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
  await sharp(noise, { raw: { width, height, channels: 3 } })
    .png()
    .toFile(join(root, 'media', image.fileName));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('resized images in a cache several servers share (MEDIA_CACHE_DIR)', () => {
  it('never shows a reader a half-written file while two servers resize the same image', async () => {
    const cacheDir = join(root, 'media-cache');
    // Two servers: two caches of their own in memory, one directory on disk.
    const servers = [
      createResizedImages(join(root, 'media'), cacheDir),
      createResizedImages(join(root, 'media'), cacheDir),
    ];
    const target = join(cacheDir, image.publicId.slice(0, 2), `${image.publicId}-1280.webp`);
    const state = { resizing: true };
    const seen: number[] = [];
    // A third party (nginx, or a server answering from the cache) reads whatever is there.
    const reader = (async () => {
      while (state.resizing) {
        const bytes = await readFile(target).catch(() => undefined);
        if (bytes) {
          const metadata = await sharp(bytes).metadata();
          seen.push(metadata.width);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const paths = await Promise.all(
      [0, 1, 0, 1, 0, 1].flatMap((server) => servers[server]?.pathOf(image, 1280) ?? []),
    );
    state.resizing = false;
    await reader;
    expect(new Set(paths)).toEqual(new Set([target]));
    expect((await sharp(await readFile(target)).metadata()).width).toBe(1280);
    expect(seen.every((width) => width === 1280)).toBe(true);
    // No temporary file is left behind.
    expect(await readdir(join(cacheDir, image.publicId.slice(0, 2)))).toEqual([
      `${image.publicId}-1280.webp`,
    ]);
    expect((await stat(target)).size).toBeGreaterThan(0);
  });
});
