import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/database.ts';
import type { Log } from '../http/logging.ts';
import { backOff } from '../timing/back-off.ts';
import { sleep } from '../timing/sleep.ts';
import { fetchSlots, type SlotPolicy } from './fetch-slots.ts';
import {
  downloadImage,
  extensionOf,
  type DownloadLimits,
  type DownloadOutcome,
} from './platform-image-download.ts';
import {
  markAttemptFailed,
  markImageReady,
  releaseLease,
  takeWaitingImages,
  type ImageLease,
} from './waiting-images.ts';
import { writeAside } from './write-aside.ts';

/**
 * Fetches the images the platform's events named (PRODUCT.md, "The app's platform"; the why in
 * docs/decisions/0023-platform-images.md): in the background on every server, a few at a time,
 * each under a lease on its row (waiting-images.ts), so a URL is fetched once however many items
 * and servers there are, and a restart resumes what was waiting. Failures are tried again with
 * back-off, then given up (`failed`): the pages keep the placeholder.
 */

/** How one attempt ended, for the metrics (a fixed set: never a URL or an id). */
export type ImageFetchOutcome = 'ready' | 'retry' | 'failed';

export interface ImageFetchObserver {
  fetched(outcome: ImageFetchOutcome): void;
}

interface RetryPolicy {
  /** After the first failure; each later one waits four times as long... */
  firstDelayMs: number;
  /** ...up to this. */
  maxDelayMs: number;
  /** Attempts in all; the image is `failed` after the last. */
  maxAttempts: number;
}

export interface FetcherLimits extends Omit<DownloadLimits, 'origins'>, Omit<SlotPolicy, 'slots'> {
  /** Fetches at once per server in slots, each for `slotMs` at most (fetch-slots.ts). */
  concurrency: number;
  /** How long a taken row stays this server's: longer than a fetch can take. */
  leaseMs: number;
  /** How often the queue is looked at without a wake-up (new rows from another server). */
  pollMs: number;
  retry: RetryPolicy;
}

export const PLATFORM_IMAGE_LIMITS: FetcherLimits = {
  concurrency: 3,
  // A slow host keeps the next image waiting 2 s at most; then its fetch goes on aside (three
  // places) while it brings 16 KiB a second over each 5 s, or is tried again later.
  slotMs: 2_000,
  aside: 3,
  minBytesPerSecond: 16 * 1024,
  rateWindowMs: 5_000,
  timeoutMs: 30_000,
  // Past the time limit, with room for storing the file: a live fetch never loses its lease.
  leaseMs: 60_000,
  pollMs: 1_000,
  maxBytes: 20 * 1024 * 1024,
  maxRedirects: 3,
  retry: { firstDelayMs: 5_000, maxDelayMs: 60 * 60_000, maxAttempts: 10 },
};

interface PlatformImageFetcherOptions {
  db: Db;
  /** MEDIA_DIR: where originals are kept. */
  mediaDir: string;
  /** PLATFORM_MEDIA_ORIGINS. */
  origins: readonly string[];
  log: Log;
  observer?: ImageFetchObserver;
  /** Replaces some of PLATFORM_IMAGE_LIMITS (tests: short leases and back-off). */
  limits?: Partial<FetcherLimits>;
}

export interface PlatformImageFetcher {
  start(): void;
  /** New waiting rows were written: look now instead of at the next poll. */
  wake(): void;
  /** Stops taking work, aborts the fetches under way and gives their rows back. */
  stop(): Promise<void>;
}

/** The wait before attempt `attempt + 1`, after `attempt` failed (a fifth either way of jitter). */
export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  return backOff({
    attempt,
    firstMs: policy.firstDelayMs,
    maxMs: policy.maxDelayMs,
    factor: 4,
    jitter: 0.2,
  });
}

/** Only the origin of a URL goes into a log line: its path may say more than it should. */
function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : 'an unreadable URL';
}

export function createPlatformImageFetcher(
  options: PlatformImageFetcherOptions,
): PlatformImageFetcher {
  const { db, mediaDir, origins, log, observer } = options;
  const limits: FetcherLimits = { ...PLATFORM_IMAGE_LIMITS, ...options.limits };
  const downloadLimits: DownloadLimits = { ...limits, origins };
  const aborting = new AbortController();
  const running = new Set<Promise<void>>();
  const slots = fetchSlots({ ...limits, slots: limits.concurrency }, () => {
    fill();
  });
  let stopped = true;
  let taking = false;
  let lookAgain = false;
  let poll: NodeJS.Timeout | undefined;

  /** Writes aside, then renames: the file is there whole or not at all. */
  async function store(lease: ImageLease, bytes: Buffer, extension: string): Promise<string> {
    const fileName = `${lease.publicId}-${randomBytes(4).toString('hex')}.${extension}`;
    await writeAside(join(mediaDir, fileName), bytes);
    return fileName;
  }

  async function failed(lease: ImageLease, reason: string, permanent: boolean): Promise<void> {
    const giveUp = permanent || lease.attempt >= limits.retry.maxAttempts;
    const retryAt = giveUp
      ? null
      : new Date(Date.now() + retryDelayMs(limits.retry, lease.attempt));
    await markAttemptFailed(db, lease, { reason, retryAt });
    observer?.fetched(giveUp ? 'failed' : 'retry');
    const where = {
      origin: originOf(lease.sourceUrl),
      image: lease.publicId,
      attempt: lease.attempt,
    };
    if (giveUp) log.warn(where, `an image from the platform was refused: ${reason}`);
    else log.info(where, `an image from the platform will be fetched again: ${reason}`);
  }

  /** Downloads within its slot (fetch-slots.ts): a fetch abandoned as too slow is retried. */
  async function download(lease: ImageLease): Promise<DownloadOutcome> {
    const tooSlow = new AbortController();
    let abandoned: string | undefined;
    const hold = slots.take((reason) => {
      abandoned = reason;
      tooSlow.abort();
    });
    try {
      const signal = AbortSignal.any([aborting.signal, tooSlow.signal]);
      const outcome = await downloadImage(lease.sourceUrl, downloadLimits, signal, hold.received);
      return !outcome.ok && abandoned
        ? { ok: false, permanent: false, reason: abandoned }
        : outcome;
    } finally {
      hold.end();
    }
  }

  async function fetchOne(lease: ImageLease, outcomeOf: Promise<DownloadOutcome>): Promise<void> {
    const outcome = await outcomeOf;
    if (aborting.signal.aborted) {
      await releaseLease(db, lease);
      return;
    }
    if (!outcome.ok) {
      await failed(lease, outcome.reason, outcome.permanent);
      return;
    }
    let fileName: string;
    try {
      fileName = await store(lease, outcome.bytes, extensionOf(outcome.format));
    } catch (error) {
      await failed(lease, `could not be stored (${errorCode(error)})`, false);
      return;
    }
    let ready: boolean;
    try {
      ready = await markImageReady(db, lease, fileName);
    } catch (error) {
      // Not recorded (the database busy or gone): the file is nobody's. Kept, it would be a
      // second original of the same image once the row is fetched again: soon, where the
      // database takes the failure, else when the lease runs out.
      await rm(join(mediaDir, fileName), { force: true });
      await failed(lease, `could not be recorded (${errorCode(error)})`, false);
      return;
    }
    if (ready) {
      observer?.fetched('ready');
      return;
    }
    // The lease ran out and another server took the row, or the row went: not ours to keep.
    await rm(join(mediaDir, fileName), { force: true });
  }

  /** Counted as running (a slot taken, and awaited on close) until it settles. */
  function track(work: Promise<void>): void {
    const tracked = work.finally(() => {
      running.delete(tracked);
      fill();
    });
    running.add(tracked);
  }

  function run(lease: ImageLease): void {
    // The slot is taken now, before the next look at the queue counts the free ones.
    track(
      fetchOne(lease, download(lease)).catch((error: unknown) => {
        log.warn(
          { err: error, image: lease.publicId },
          'fetching an image from the platform failed',
        );
      }),
    );
  }

  /** Takes as many due rows as there are free slots; one look at the queue at a time. */
  function fill(): void {
    if (stopped) return;
    if (taking) {
      lookAgain = true;
      return;
    }
    const free = slots.free();
    if (free <= 0) return;
    taking = true;
    lookAgain = false;
    takeWaitingImages(db, { now: new Date(), limit: free, leaseMs: limits.leaseMs })
      .then((leases) => {
        for (const lease of leases) {
          // Closed while looking: the rows go back at once rather than when their leases run out.
          if (stopped) track(releaseLease(db, lease).catch(() => undefined));
          else run(lease);
        }
        // Every slot filled: there may be more waiting, taken as fetches end.
        if (leases.length === free && leases.length > 0) lookAgain = true;
      })
      .catch((error: unknown) => {
        log.warn({ err: error }, 'could not look for images to fetch; the next poll tries again');
      })
      .finally(() => {
        taking = false;
        if (lookAgain && slots.free() > 0) fill();
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      poll = setInterval(fill, limits.pollMs).unref();
      fill();
    },
    wake: fill,
    async stop() {
      stopped = true;
      clearInterval(poll);
      aborting.abort();
      while (running.size > 0 || taking) {
        await Promise.allSettled([...running]);
        if (taking) await sleep(10);
      }
    },
  };
}

/** What a failure is called in an image's reason: its system code, never its message or paths. */
function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'an error';
}
