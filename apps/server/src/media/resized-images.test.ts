import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredImage } from './media-repository.ts';
import { createOriginalFiles } from './original-files.ts';
import { createResizedImages, type ResizedImage } from './resized-images.ts';
import { makeFullDisk } from '../test-support/full-disk.ts';
import { warningsLog } from '../test-support/warnings-log.ts';

let root: string;
const image: StoredImage = {
  publicId: 'AbCdEfGhIjKlMnOp',
  width: 1600,
  height: 1200,
  fileName: 'a.png',
  sourceUrl: null,
  ready: true,
};

/** The originals in `dir`, with no platform to fetch a missing one from. */
function originalsIn(dir: string) {
  return createOriginalFiles({ mediaDir: dir, download: null, log: warningsLog([]) });
}

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
      createResizedImages(originalsIn(join(root, 'media')), cacheDir),
      createResizedImages(originalsIn(join(root, 'media')), cacheDir),
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
      [0, 1, 0, 1, 0, 1].flatMap((server) => servers[server]?.get(image, 1280) ?? []),
    ).then((all) => all.map((resized) => (resized.kind === 'file' ? resized.path : 'bytes')));
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

/**
 * The highest number of resizes sharp had queued or running, sampled while `work` runs. sharp
 * counts a finished one out only after its promise settled, so a sample may see the next one
 * start before the last is counted out: one more than the limit at most.
 */
async function peakResizes(work: Promise<unknown>): Promise<number> {
  let peak = 0;
  const state = { running: true };
  const sampler = (async () => {
    while (state.running) {
      const { queue, process } = sharp.counters();
      peak = Math.max(peak, queue + process);
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  await work;
  state.running = false;
  await sampler;
  return peak;
}

describe('resizing', () => {
  it('runs at most maxConcurrentResizes at once, however many different sizes are asked for', async () => {
    const images = createResizedImages(originalsIn(join(root, 'media')), join(root, 'cap-cache'), {
      maxConcurrentResizes: 1,
    });
    // Three widths of three images (ids of their own, the same original): nine resizes.
    const ids = ['CapAAAAAAAAAAAAA', 'CapBBBBBBBBBBBBB', 'CapCCCCCCCCCCCCC'];
    const work = Promise.all(
      ids.flatMap((publicId) =>
        ([160, 480, 960] as const).map((width) => images.get({ ...image, publicId }, width)),
      ),
    );
    const peak = await peakResizes(work);
    expect((await work).every((resized) => resized.kind === 'file')).toBe(true);
    expect(peak).toBeGreaterThan(0);
    // One at a time (plus the counting overlap above); without the limit, all nine at once.
    expect(peak).toBeLessThanOrEqual(2);
  });

  it('on a full disk, hands over the bytes, keeps them in memory and warns once', async () => {
    const disk = await makeFullDisk();
    try {
      const warnings: string[] = [];
      const images = createResizedImages(
        originalsIn(join(root, 'media')),
        join(disk.dir, 'cache'),
        {
          log: warningsLog(warnings),
        },
      );
      const first: ResizedImage = await images.get(image, 640);
      expect(first.kind).toBe('bytes');
      if (first.kind !== 'bytes') return;
      expect((await sharp(first.bytes).metadata()).width).toBe(640);
      // The same size again comes from memory: no second resize.
      const again = await peakResizes(images.get(image, 640));
      expect(again).toBe(0);
      expect(await images.get(image, 640)).toEqual(first);
      await images.get(image, 320);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('ENOSPC');
    } finally {
      await disk.remove();
    }
  });
});
