import type { FastifyInstance } from 'fastify';
import type { DataPaths } from '../config/data-paths.ts';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { Db } from '../db/database.ts';
import { findServableImage } from './media-repository.ts';
import { mediaRoutes } from './media-routes.ts';
import { createPlaceholderImages } from './placeholder-image.ts';
import {
  createPlatformImageFetcher,
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
}

/**
 * The images of goods, cabinets and notes, in the sizes pages ask for, made on first request;
 * and the fetcher that brings them from the platform's media hosts, on every server, from its
 * start to its close (docs/decisions/0023-platform-images.md).
 */
export async function registerMedia(
  app: FastifyInstance,
  { db, paths, platform, observer, fetcherLimits }: MediaPluginOptions,
): Promise<Media> {
  await app.register(mediaRoutes, {
    findImage: (publicId) => findServableImage(db, publicId),
    resized: createResizedImages(paths.media, paths.mediaCache, { log: app.log }),
    placeholders: createPlaceholderImages(),
  });
  if (!platform) return { imagesWaiting: () => undefined };
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
  };
}
