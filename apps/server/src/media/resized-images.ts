import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ImageWidth } from '@guquan/contract/share-paths';
import type { Log } from '../http/logging.ts';
import { concurrencyLimit } from './concurrency-limit.ts';
import type { StoredImage } from './media-repository.ts';
import type { OriginalFiles } from './original-files.ts';
import { writeAside } from './write-aside.ts';

/** WebP at this quality is small and still clean on a phone's screen. */
const WEBP_QUALITY = 75;

/**
 * Resizes running at once, at most: one per core. A resize is tens of milliseconds of CPU on
 * libuv's threads (four by default), which also do every file read; a page of 20 new images, or
 * a flood of sizes nobody asked for before, waits its turn instead of taking them all.
 */
const MAX_CONCURRENT_RESIZES = Math.max(1, availableParallelism());

/**
 * Resized images kept in memory while the cache directory refuses writes (a full disk, a
 * read-only mount): the same image is not resized again for every visitor meanwhile.
 */
const MEMORY_FALLBACK_BYTES = 32 * 1024 * 1024;

/**
 * An image at one width: a file in the cache directory, or bytes when it could not be written;
 * `missing` when its original is not on this server and cannot be fetched again now.
 */
export type ResizedImage =
  | { kind: 'file'; path: string; size: number }
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'missing' };

export interface ResizedImages {
  /** The image at this width (never wider than the original), made on first use. */
  get(image: StoredImage, width: ImageWidth): Promise<ResizedImage>;
}

export interface ResizedImagesOptions {
  maxConcurrentResizes?: number;
  /** Told once when the cache directory starts refusing writes, and once when it takes them again. */
  log?: Log;
}

/** A small LRU of bytes, bounded by their total size. */
function byteCache(limit: number) {
  const entries = new Map<string, Buffer>();
  let total = 0;
  return {
    get(key: string): Buffer | undefined {
      const bytes = entries.get(key);
      if (bytes) {
        entries.delete(key);
        entries.set(key, bytes);
      }
      return bytes;
    },
    set(key: string, bytes: Buffer): void {
      if (bytes.length > limit || entries.has(key)) return;
      entries.set(key, bytes);
      total += bytes.length;
      for (const [oldest, old] of entries) {
        if (total <= limit) break;
        entries.delete(oldest);
        total -= old.length;
      }
    },
  };
}

/**
 * Each image is resized once per width and kept on disk in the cache directory. A file appears
 * there complete or not at all (written aside, then renamed), and requests that arrive together
 * for the same missing size wait for the one resize instead of each starting their own.
 *
 * The cache is a cache: when it cannot be written (ENOSPC, a read-only or vanished mount), the
 * visitor still gets the resized bytes, the operators get one warning (and a note when writes work
 * again), and the bytes are kept in memory for the next visitors meanwhile.
 */
export function createResizedImages(
  originals: OriginalFiles,
  cacheDir: string,
  options: ResizedImagesOptions = {},
): ResizedImages {
  const inFlight = new Map<string, Promise<ResizedImage>>();
  const limit = concurrencyLimit(options.maxConcurrentResizes ?? MAX_CONCURRENT_RESIZES);
  const unwritten = byteCache(MEMORY_FALLBACK_BYTES);
  let cacheWritable = true;

  /** Writes aside, then renames; true when the file is in place. */
  async function store(target: string, bytes: Buffer): Promise<boolean> {
    try {
      await writeAside(target, bytes);
    } catch (error) {
      if (cacheWritable) {
        cacheWritable = false;
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        options.log?.warn(
          { cacheDir },
          `cannot write to the image cache (${code}): serving resized images from memory until it can`,
        );
      }
      return false;
    }
    if (!cacheWritable) {
      cacheWritable = true;
      options.log?.info({ cacheDir }, 'the image cache takes writes again');
    }
    return true;
  }

  async function resize(
    image: StoredImage,
    width: ImageWidth,
    target: string,
  ): Promise<ResizedImage> {
    const original = await originals.pathOf(image);
    if (original === undefined) return { kind: 'missing' };
    const bytes = await limit(() =>
      sharp(original)
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer(),
    );
    if (await store(target, bytes))
      return { kind: 'file', path: target, size: bytes.length } as const;
    unwritten.set(target, bytes);
    return { kind: 'bytes', bytes } as const;
  }

  return {
    async get(image, width) {
      // Ids match the public id pattern (letters, digits, - and _), so they are safe file names;
      // a folder per two-letter prefix keeps folders small.
      const target = join(cacheDir, image.publicId.slice(0, 2), `${image.publicId}-${width}.webp`);
      const size = await stat(target).then(
        (found) => found.size,
        () => undefined,
      );
      if (size !== undefined) return { kind: 'file', path: target, size };
      const kept = unwritten.get(target);
      if (kept) return { kind: 'bytes', bytes: kept };
      let pending = inFlight.get(target);
      if (!pending) {
        pending = resize(image, width, target).finally(() => inFlight.delete(target));
        inFlight.set(target, pending);
      }
      return pending;
    },
  };
}
