import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { ShareKind } from '@guquan/contract/share-paths';
import type { DataPaths } from '../config/data-paths.ts';
import type { AppLinksConfig } from '../config/app-links-config.ts';
import type { Db } from '../db/database.ts';
import { itemUniversalLink } from '../app-links/item-universal-link.ts';
import { findServableImage } from '../media/media-repository.ts';
import type { Media } from '../media/media-plugin.ts';
import type { ShareReader } from '../shares/share-reader.ts';
import { loadPictureFonts, type PictureFonts } from './picture-fonts.ts';
import { PhotoUnavailable } from './photo-unavailable.ts';
import { pictureRoutes, posterRoutes } from './picture-routes.ts';
import { qrCodeRoutes } from './qr-code-routes.ts';
import { createPictureStore } from './picture-store.ts';
import { createRenderQueue } from './render-queue.ts';

/**
 * Pictures drawn at once per server (a drawing keeps a core busy for tens of milliseconds), how
 * many may wait behind them, and how many new ones a client may start per minute (a scan of ids
 * cannot keep the CPU busy).
 */
const PICTURE_DRAWINGS_AT_ONCE = 2;
const PICTURE_DRAWINGS_WAITING = 128;
const PICTURE_DRAWINGS_PER_CLIENT_MINUTE = 60;

export interface PicturesPluginOptions {
  db: Db;
  paths: Pick<DataPaths, 'mediaCache'>;
  /** The originals the pictures are drawn from, on this server's disk or fetched again. */
  media: Pick<Media, 'originalPath'>;
  /** Reads the item a picture shows (reused for a second: shares/recent-share-reads.ts). */
  shares: ShareReader;
  appLinks: AppLinksConfig;
  /** Replaces how many new pictures a client may have drawn per minute (tests: a few). */
  drawingsPerMinute?: number;
}

/**
 * Preview cards and share posters (docs/decisions/0019-share-pictures.md): drawn once per version
 * of an item, kept on disk; a poster's address is asked for through the API.
 */
export async function registerPictures(
  app: FastifyInstance,
  { db, paths, media, shares, appLinks, drawingsPerMinute }: PicturesPluginOptions,
): Promise<void> {
  // A poster's QR code holds the item's Universal Link on the app's link domain.
  const link = (kind: ShareKind, id: string) => itemUniversalLink(appLinks, { kind, id });
  await app.register(posterRoutes, { prefix: API_BASE_PATH, shares, link });
  // "Scan to open on your phone" on a desktop: the same links, as SVG images.
  await app.register(qrCodeRoutes, {
    link: (target) => itemUniversalLink(appLinks, target),
  });
  let fonts: PictureFonts | undefined;
  await app.register(pictureRoutes, {
    shares,
    // The store reports a disk that refuses pictures once, until a write succeeds again.
    store: createPictureStore(paths.mediaCache, (error) => {
      app.log.warn({ err: error }, 'pictures cannot be kept on disk: sent from memory instead');
    }),
    queue: createRenderQueue(PICTURE_DRAWINGS_AT_ONCE, PICTURE_DRAWINGS_WAITING),
    fonts: () => (fonts ??= loadPictureFonts()),
    photos: async (imageId) => {
      const image = await findServableImage(db, imageId);
      // An image not here yet is left out (the content has already left it out: its hash
      // changes when it arrives).
      if (!image?.ready) return undefined;
      // Arrived, but not to be had on this server now: no lesser picture kept in its place.
      const path = await media.originalPath(image);
      if (path === undefined) throw new PhotoUnavailable();
      return path;
    },
    link,
    drawingsPerMinute: drawingsPerMinute ?? PICTURE_DRAWINGS_PER_CLIENT_MINUTE,
  });
}
