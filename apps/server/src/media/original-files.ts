import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Log } from '../http/logging.ts';
import { concurrencyLimit } from './concurrency-limit.ts';
import { downloadImage, type DownloadLimits } from './platform-image-download.ts';
import { writeAside } from './write-aside.ts';

/**
 * The originals on this server's own disk (MEDIA_DIR), a cache of the platform's media hosts
 * (docs/decisions/0029-servers-keep-nothing-of-their-own.md): the image fetcher puts an original
 * there on whichever server took its row; any other server that needs it (a new one, one whose
 * disk was wiped) fetches it again from the same URL, under the same checks, the first time it is
 * asked for. The platform keeps the originals; the database says which are here, by name.
 */

export interface KeptOriginal {
  /** The original's bare file name, the same on every server ('' until it has arrived). */
  fileName: string;
  /** Where the platform keeps it (images.source_url). */
  sourceUrl: string | null;
}

export interface OriginalFiles {
  /**
   * The original's path on this disk, fetched again from the platform when the disk lacks it;
   * undefined when it cannot be had now (the host down, no platform configured): the caller
   * answers as for an image not here yet, and a later request tries again.
   */
  pathOf(image: KeptOriginal): Promise<string | undefined>;
}

export interface OriginalFilesOptions {
  mediaDir: string;
  /** The platform's media hosts and the download's limits; null: nothing can be fetched again. */
  download: DownloadLimits | null;
  log: Log;
  /** Stops the fetches under way (the server closing). */
  signal?: AbortSignal;
}

/** Fetches again at once, at most: a wiped server under load must not flood the media hosts. */
const REFILLS_AT_ONCE = 6;
/** A refill that failed is not tried again for this long (a host that is down, a file it lost). */
const FAILED_REFILL_PAUSE_MS = 30_000;

export function createOriginalFiles({
  mediaDir,
  download,
  log,
  signal,
}: OriginalFilesOptions): OriginalFiles {
  const inFlight = new Map<string, Promise<string | undefined>>();
  const failedUntil = new Map<string, number>();
  const limit = concurrencyLimit(REFILLS_AT_ONCE);

  function pausedAfterFailure(name: string): boolean {
    const until = failedUntil.get(name);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    failedUntil.delete(name);
    return false;
  }

  async function refill(
    fileName: string,
    sourceUrl: string,
    target: string,
  ): Promise<string | undefined> {
    if (!download) return undefined;
    const outcome = await limit(() =>
      downloadImage(sourceUrl, download, signal ?? new AbortController().signal),
    );
    if (!outcome.ok) {
      failedUntil.set(fileName, Date.now() + FAILED_REFILL_PAUSE_MS);
      // Only the origin: the URL's path may say more than a log should.
      const origin = URL.canParse(sourceUrl) ? new URL(sourceUrl).origin : 'an unreadable URL';
      log.warn(
        { origin, file: fileName },
        `an original missing on this server could not be fetched again: ${outcome.reason}`,
      );
      return undefined;
    }
    await writeAside(target, outcome.bytes);
    log.info({ file: fileName }, 'an original missing on this server was fetched again');
    return target;
  }

  return {
    async pathOf({ fileName, sourceUrl }) {
      if (fileName === '') return undefined;
      // The name comes from our own database; basename() keeps even a bad row inside the folder.
      const name = basename(fileName);
      const target = join(mediaDir, name);
      if (
        await stat(target).then(
          () => true,
          () => false,
        )
      )
        return target;
      if (sourceUrl === null || pausedAfterFailure(name)) return undefined;
      let pending = inFlight.get(name);
      if (!pending) {
        pending = refill(name, sourceUrl, target)
          .catch((error: unknown) => {
            failedUntil.set(name, Date.now() + FAILED_REFILL_PAUSE_MS);
            log.warn({ err: error, file: name }, 'an original fetched again could not be kept');
            return undefined;
          })
          .finally(() => inFlight.delete(name));
        inFlight.set(name, pending);
      }
      return pending;
    },
  };
}
