import sharp from 'sharp';
import { isOnMediaOrigins } from '../config/platform-config.ts';
import { readBodyUpTo } from '../http/bounded-body.ts';

/**
 * One download of an image from the platform's media hosts, with the limits of
 * docs/decisions/0023-platform-images.md: only from the configured origins (redirects followed
 * by hand, a few hops, never off them), within a time limit, at most `maxBytes` (reading stops
 * past it), and only JPEG, PNG, WebP or AVIF as the bytes themselves say (sharp's metadata, not
 * the Content-Type), decoded whole before it counts as arrived.
 */

export interface DownloadLimits {
  origins: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

/** The formats kept, by sharp's name for them, with the file extension they are kept under. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif';
const EXTENSIONS: Record<ImageFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
};

export function extensionOf(format: ImageFormat): string {
  return EXTENSIONS[format];
}

/**
 * Why a download gave nothing: `permanent` when trying again cannot help (the bytes are no image
 * we take, too large, a redirect off the origins), otherwise a fault worth retrying (a timeout, a
 * refused connection, a 5xx or 404 from a host that may not have the file yet, pixels that do not
 * decode).
 */
export type DownloadOutcome =
  | { ok: true; bytes: Buffer; format: ImageFormat }
  | { ok: false; permanent: boolean; reason: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function refused(permanent: boolean, reason: string): DownloadOutcome {
  return { ok: false, permanent, reason };
}

/** The image's format as its bytes say, if it is one we keep. */
export async function imageFormatOf(bytes: Buffer): Promise<ImageFormat | undefined> {
  try {
    const { format, compression } = await sharp(bytes).metadata();
    if (format === 'jpeg' || format === 'png' || format === 'webp') return format;
    // AVIF is HEIF with AV1 inside; HEIF with HEVC is not one of the formats we take.
    if (format === 'heif' && compression === 'av1') return 'avif';
    return undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the image's pixels cannot be decoded, or undefined when they can. Every pixel is read, with
 * the options the resizes use (resized-images.ts: sharp's default `failOn`), so an image taken
 * here is one every size can be made of: a header that reads over pixels that break off (a
 * truncated file) fails. The pixels are shrunk to a strip 8 wide as they are read, so a large image
 * is never held whole; shrinking on load is off, which would skip most of a JPEG's pixels. (Not
 * sharp's `stats()`: with other images decoding at once, sharp 0.35 lets it succeed on a broken
 * image about a third of the time.)
 */
export async function undecodableReason(bytes: Buffer): Promise<string | undefined> {
  try {
    await sharp(bytes).resize({ width: 8, fastShrinkOnLoad: false }).raw().toBuffer();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timed out';
    const cause = (error as Error & { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? cause.code : undefined;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/**
 * Downloads `url` within `limits`; `signal` aborts it (the server closing, the fetch too slow);
 * `received` is told of the body's bytes as they come.
 */
export async function downloadImage(
  url: string,
  limits: DownloadLimits,
  signal: AbortSignal,
  received?: (bytes: number) => void,
): Promise<DownloadOutcome> {
  // A timer of our own, not AbortSignal.timeout(): inside AbortSignal.any() Node 20 may collect
  // that signal during a long fetch, and the time limit then never comes.
  const limit = new AbortController();
  const timer = setTimeout(() => {
    limit.abort(new DOMException('The time limit passed', 'TimeoutError'));
  }, limits.timeoutMs);
  const timeout = AbortSignal.any([signal, limit.signal]);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      if (!isOnMediaOrigins(current, limits.origins)) {
        return refused(
          true,
          hop === 0 ? 'not on the media origins' : 'redirected off the media origins',
        );
      }
      const response = await fetch(current, {
        redirect: 'manual',
        signal: timeout,
        headers: { accept: 'image/avif,image/webp,image/png,image/jpeg' },
      });
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (!location || !URL.canParse(location, current)) {
          return refused(true, `a redirect (${response.status}) without a usable location`);
        }
        if (hop >= limits.maxRedirects) return refused(true, 'too many redirects');
        current = new URL(location, current).href;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        return refused(false, `answered ${response.status}`);
      }
      const bytes = await readBodyUpTo(response, limits.maxBytes, received);
      if (!bytes) return refused(true, `larger than ${limits.maxBytes} bytes`);
      const format = await imageFormatOf(bytes);
      if (!format) return refused(true, 'not a JPEG, PNG, WebP or AVIF image');
      // Broken pixels may be a transfer's fault (a host that served part of the file): retried.
      const undecodable = await undecodableReason(bytes);
      if (undecodable) return refused(false, `could not be decoded: ${undecodable}`);
      return { ok: true, bytes, format };
    }
  } catch (error) {
    return refused(false, describeError(error));
  } finally {
    clearTimeout(timer);
  }
}
