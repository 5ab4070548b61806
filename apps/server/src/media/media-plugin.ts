import type { FastifyInstance } from 'fastify';
import type { DataPaths } from '../config/data-paths.ts';
import type { Db } from '../db/database.ts';
import { findServableImage } from './media-repository.ts';
import { mediaRoutes } from './media-routes.ts';
import { createResizedImages } from './resized-images.ts';

/** The images of goods, cabinets and notes, in the sizes pages ask for, made on first request. */
export async function registerMedia(
  app: FastifyInstance,
  { db, paths }: { db: Db; paths: Pick<DataPaths, 'media' | 'mediaCache'> },
): Promise<void> {
  await app.register(mediaRoutes, {
    findImage: (publicId) => findServableImage(db, publicId),
    resized: createResizedImages(paths.media, paths.mediaCache, { log: app.log }),
  });
}
