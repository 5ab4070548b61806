import { join } from 'node:path';

/** What lives in DATA_DIR, in one place: the server, the seed and the tests agree on it. */
export interface DataPaths {
  /** The SQLite database. */
  database: string;
  /** Image originals, one file per image (its name is in the images table). */
  media: string;
  /** Resized WebP images, made on first request; safe to delete at any time. */
  mediaCache: string;
  /** Demo mode's phone encryption key, made on the first start (production configures one). */
  phoneKey: string;
}

export function dataPaths(dataDir: string): DataPaths {
  return {
    database: join(dataDir, 'guquan.sqlite'),
    media: join(dataDir, 'media'),
    mediaCache: join(dataDir, 'media-cache'),
    phoneKey: join(dataDir, 'phone-encryption.key'),
  };
}

/** The paths a configuration names: MEDIA_DIR and MEDIA_CACHE_DIR may lie outside DATA_DIR. */
export function configuredPaths(config: {
  dataDir: string;
  mediaDir: string;
  mediaCacheDir: string;
}): DataPaths {
  return {
    ...dataPaths(config.dataDir),
    media: config.mediaDir,
    mediaCache: config.mediaCacheDir,
  };
}
