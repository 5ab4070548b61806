import type { FastifyInstance } from 'fastify';
import type { DataPaths } from '../config/data-paths.ts';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { Db } from '../db/database.ts';
import { schedulePeriodicWork } from '../plugins/periodic-work.ts';
import { sweepMediaDisk } from './disk-sweep.ts';
import { findServableImage } from './media-repository.ts';
import { mediaRoutes } from './media-routes.ts';
import { createOriginalFiles, type KeptOriginal } from './original-files.ts';
import { createPlaceholderImages } from './placeholder-image.ts';
import {
  createPlatformImageFetcher,
  PLATFORM_IMAGE_LIMITS,
  type FetcherLimits,
  type ImageFetchObserver,
} from './platform-image-fetcher.ts';
import { createResizedImages } from './resized-images.ts';

export interface MediaPluginOptions {
  db: Db;
  paths: Pick<DataPaths, 'media' | 'mediaCache'>;
  /** Where images come from (PLATFORM_MEDIA_ORIGINS); null: no platform, nothing to fetch. */
  platform: Pick<PlatformConfig, 'mediaOrigins'> | null;
  observer?: ImageFetchObserver;
  /** Replaces some of the fetcher's limits (tests: short leases and back-off). */
  fetcherLimits?: Partial<FetcherLimits>;
}

/** What the media feature answers the others. */
export interface Media {
  /**
   * New waiting images were written (call it after the transaction commits): this server looks
   * for them now instead of at its next poll. The other servers find them within a second.
   */
  imagesWaiting(): void;
  /**
   * The path of an arrived image's original on this server's disk, fetched again from the
   * platform when this disk lacks it (original-files.ts); undefined when it cannot be had now.
   */
  originalPath(image: KeptOriginal): Promise<string | undefined>;
}

/**
 * A page waits this long at most for an original this server fetches again: a host slower than
 * that gets the placeholder now and the image at the next request.
 */
const REFILL_TIMEOUT_MS = 10_000;

/**
 * How often a server removes its copies of images whose rows went (disk-sweep.ts), and how old a
 * copy must be to go: an original is written a moment before its row names it.
 */
const DISK_SWEEP_INTERVAL_MS = 15 * 60_000;
const DISK_SWEEP_GRACE_MS = 10 * 60_000;

/**
 * The images of goods, cabinets and notes, in the sizes pages ask for, made on first request;
 * and the fetcher that brings them from the platform's media hosts, on every server, from its
 * start to its close (docs/decisions/0023-platform-images.md).
 */
export async function registerMedia(
  app: FastifyInstance,
  { db, paths, platform, observer, fetcherLimits }: MediaPluginOptions,
): Promise<Media> {
  const closing = new AbortController();
  app.addHook('onClose', () => {
    closing.abort();
    return Promise.resolve();
  });
  const originals = createOriginalFiles({
    mediaDir: paths.media,
    download: platform && {
      origins: platform.mediaOrigins,
      timeoutMs: REFILL_TIMEOUT_MS,
      maxBytes: PLATFORM_IMAGE_LIMITS.maxBytes,
      maxRedirects: PLATFORM_IMAGE_LIMITS.maxRedirects,
    },
    log: app.log,
    signal: closing.signal,
  });
  const originalPath = (image: KeptOriginal) => originals.pathOf(image);
  schedulePeriodicWork(app, {
    name: 'the media disk sweep',
    intervalMs: DISK_SWEEP_INTERVAL_MS,
    run: async () => {
      const swept = await sweepMediaDisk(db, {
        mediaDir: paths.media,
        mediaCacheDir: paths.mediaCache,
        graceMs: DISK_SWEEP_GRACE_MS,
      });
      if (swept.originals + swept.resized > 0) {
        app.log.info(swept, 'removed this server’s copies of images that are gone');
      }
    },
  });
  await app.register(mediaRoutes, {
    findImage: (publicId) => findServableImage(db, publicId),
    resized: createResizedImages(originals, paths.mediaCache, { log: app.log }),
    placeholders: createPlaceholderImages(),
  });
  if (!platform) return { imagesWaiting: () => undefined, originalPath };
  const fetcher = createPlatformImageFetcher({
    db,
    mediaDir: paths.media,
    origins: platform.mediaOrigins,
    log: app.log,
    observer,
    limits: fetcherLimits,
  });
  app.addHook('onReady', () => {
    fetcher.start();
    return Promise.resolve();
  });
  app.addHook('onClose', () => fetcher.stop());
  return {
    imagesWaiting: () => {
      fetcher.wake();
    },
    originalPath,
  };
}
