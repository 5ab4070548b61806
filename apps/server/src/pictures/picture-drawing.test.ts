import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PICTURE_DESIGN,
  PICTURE_SIZES,
  type PictureContent,
} from '@guquan/contract/share-pictures';
import { drawPicture } from './picture-drawing.ts';
import { loadPictureFonts } from './picture-fonts.ts';
import { COLORS, posterLayout } from './picture-layouts.ts';

// A poster is drawn several times here: seconds on a busy machine (the first loads satori).
vi.setConfig({ testTimeout: 60_000 });

/** A photo with detail everywhere (stripes on a gradient), so a blurred or shifted crop shows. */
function photoSvg(width: number, height: number, hue: number): string {
  const stripes = Array.from(
    { length: Math.ceil(width / 40) },
    (_, index) =>
      `<rect x="${index * 40}" width="20" height="${height}" fill="hsl(${hue}, 70%, 35%)"/>`,
  ).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue}, 80%, 80%)"/>` +
    `<stop offset="1" stop-color="hsl(${hue + 60}, 80%, 60%)"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>${stripes}</svg>`
  );
}

const content: PictureContent = {
  design: PICTURE_DESIGN,
  picture: 'poster',
  kind: 'goods',
  id: 'testGoods001',
  language: 'zh-CN',
  title: '测试谷子',
  subtitle: '',
  detail: '¥12.00 · 出',
  owner: '谷主 测试',
  images: ['portrait', 'landscape', 'portrait'],
  link: 'https://link.guquan.test/anime_merch_web/AppShare/goodsShare?id=testGoods001',
  mark: '谷圈',
  scan: '扫码查看',
};

/** Mean absolute difference of two raw images of the same size, per channel value. */
function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += Math.abs((a[index] ?? 0) - (b[index] ?? 0));
  return sum / a.length;
}

describe('drawing a poster', () => {
  let dir = '';
  const photos = (imageId: string) => Promise.resolve(join(dir, `${imageId}.png`));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guquan-drawing-'));
    await sharp(Buffer.from(photoSvg(480, 1200, 200)))
      .png()
      .toFile(await photos('portrait'));
    await sharp(Buffer.from(photoSvg(1600, 900, 20)))
      .png()
      .toFile(await photos('landscape'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lays each photo on as sharp crops it to its box (no lossy copy in between), the page colour between them', async () => {
    const fonts = loadPictureFonts();
    const jpeg = await drawPicture(content, fonts, photos);
    const { width, height } = PICTURE_SIZES.poster;
    const poster = sharp(jpeg);
    expect(await poster.metadata()).toMatchObject({ format: 'jpeg', width, height });

    const layout = posterLayout(content, '');
    expect(layout.photos).toHaveLength(3);
    for (const { imageId, box } of layout.photos) {
      const expected = await sharp(await photos(imageId))
        .resize({ width: box.width, height: box.height, fit: 'cover', position: 'attention' })
        .removeAlpha()
        .raw()
        .toBuffer();
      const drawn = await sharp(jpeg).extract(box).raw().toBuffer();
      // What JPEG at quality 84 does to these stripes (0.8 and 4.2 here); the centre's crop
      // instead of the attention's is 12 and 6.8 away.
      expect(meanDifference(drawn, expected), imageId).toBeLessThan(5);
    }

    // Between the thumbnails: the page colour, from the drawing beneath the photos.
    const [first, second] = layout.photos.slice(1).map((photo) => photo.box);
    if (!first || !second) throw new Error('The poster should have two thumbnails');
    const gap = await sharp(jpeg)
      .extract({ left: first.left + first.width + 2, top: first.top + 20, width: 4, height: 4 })
      .raw()
      .toBuffer();
    const page = [COLORS.page.slice(1, 3), COLORS.page.slice(3, 5), COLORS.page.slice(5, 7)].map(
      (hex) => Number.parseInt(hex, 16),
    );
    for (let pixel = 0; pixel < gap.length; pixel += 3)
      for (const [channel, value] of page.entries())
        expect(Math.abs((gap[pixel + channel] ?? 0) - value)).toBeLessThanOrEqual(6);
  });
});
