import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { ImageWidth } from '@guquan/contract/share-paths';
import type { StoredImage } from './media-repository.ts';

/** WebP at this quality is small and still clean on a phone's screen. */
const WEBP_QUALITY = 75;

export interface ResizedImages {
  /** The path of the image at this width (never wider than the original), made on first use. */
  pathOf(image: StoredImage, width: ImageWidth): Promise<string>;
}

/**
 * Each image is resized once per width and kept on disk in the cache directory. A file appears
 * there complete or not at all (written aside, then renamed), and requests that arrive together
 * for the same missing size wait for the one resize instead of each starting their own.
 */
export function createResizedImages(originalsDir: string, cacheDir: string): ResizedImages {
  const inFlight = new Map<string, Promise<string>>();

  async function resize(image: StoredImage, width: ImageWidth, target: string): Promise<string> {
    // The name comes from our own database; basename() keeps even a bad row inside the folder.
    const original = join(originalsDir, basename(image.fileName));
    await mkdir(join(target, '..'), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await sharp(original)
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toFile(temporary);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return target;
  }

  return {
    async pathOf(image, width) {
      // Ids match the public id pattern (letters, digits, - and _), so they are safe file names;
      // a folder per two-letter prefix keeps folders small.
      const target = join(cacheDir, image.publicId.slice(0, 2), `${image.publicId}-${width}.webp`);
      const exists = await stat(target).then(
        () => true,
        () => false,
      );
      if (exists) return target;
      const key = `${image.publicId}/${width}`;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = resize(image, width, target).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
