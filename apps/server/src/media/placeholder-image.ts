import { LRUCache } from 'lru-cache';
import sharp from 'sharp';

/**
 * What the media route answers for an image whose file is not here yet (being fetched from the
 * platform, or refused): a flat panel in the pages' placeholder colour at the image's shape, so
 * an address a page (or a cached copy of one) already holds never shows a broken image.
 */

/** The pages' placeholder colour (the share gallery's background). */
const PLACEHOLDER_COLOUR = { r: 0xf1, g: 0xef, b: 0xf5 };

/** Shapes kept encoded: a few dozen bytes each. */
const KEPT_SHAPES = 256;

export interface PlaceholderImages {
  /** A WebP `width` wide at the original's aspect ratio (never wider than the original). */
  get(original: { width: number; height: number }, width: number): Promise<Buffer>;
}

export function createPlaceholderImages(): PlaceholderImages {
  const made = new LRUCache<string, Buffer>({
    max: KEPT_SHAPES,
    fetchMethod: (key) => {
      const [width = 1, height = 1] = key.split('x').map(Number);
      return sharp({ create: { width, height, channels: 3, background: PLACEHOLDER_COLOUR } })
        .webp({ quality: 50, effort: 0 })
        .toBuffer();
    },
  });
  return {
    async get(original, wanted) {
      const width = Math.max(1, Math.min(wanted, original.width));
      const height = Math.max(1, Math.round((width * original.height) / original.width));
      const bytes = await made.fetch(`${width}x${height}`);
      if (!bytes) throw new Error('The placeholder could not be made');
      return bytes;
    },
  };
}
