import { API_BASE_PATH, BASE_PATH } from './site-paths.ts';

/**
 * The share pages' ids, failures, API paths and image URLs: plain code without zod, so a page
 * that only shows a share (rendered by the server) does not ship the schemas to the phone. The
 * schemas are in share.ts.
 */

/**
 * Public ids: 16 characters of base64url, 96 random bits. Nobody can guess one or walk from one to
 * the next; the database's own row ids never leave the server.
 */
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{16}$/;

export type ShareKind = 'goods' | 'cabinet' | 'note';

/**
 * Why a share cannot be shown, with its HTTP status and the API's error code.
 * `invalid_id` covers a missing id as well as a malformed one.
 */
export const SHARE_FAILURES = {
  invalid_id: 400,
  private: 403,
  not_found: 404,
  removed: 410,
} as const;
export type ShareFailure = keyof typeof SHARE_FAILURES;

/** The id from a query value, or undefined when missing or malformed. */
export function parseShareId(value: unknown): string | undefined {
  const single: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof single === 'string' && PUBLIC_ID_PATTERN.test(single) ? single : undefined;
}

const apiSegments: Readonly<Record<ShareKind, string>> = {
  goods: 'goods',
  cabinet: 'cabinets',
  note: 'notes',
};

/** The API path of a share, e.g. /anime_merch_web/api/v1/goods/AbCd…; `:id` for the route. */
export function shareApiPath(kind: ShareKind, id = ':id'): string {
  return `${API_BASE_PATH}/${apiSegments[kind]}/${id}`;
}

/**
 * Images are served at fixed widths only (each one is made once and cached): a page picks from
 * these in its srcset, and the server refuses any other.
 */
export const IMAGE_WIDTHS = [160, 320, 480, 640, 750, 960, 1280] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export const MEDIA_PATH = `${BASE_PATH}/media`;

/** The URL of an image at one of IMAGE_WIDTHS, as WebP. */
export function imageUrl(imageId: string, width: ImageWidth): string {
  return `${MEDIA_PATH}/${imageId}/${width}.webp`;
}

/**
 * `srcset` for an image: every width smaller than `largest` (at most the original's), and the
 * first that is not. The server never enlarges, so a width past the original is the original's own.
 */
export function imageSrcSet(image: { id: string; width: number }, largest = Infinity): string {
  const limit = Math.min(image.width, largest);
  const smaller = IMAGE_WIDTHS.filter((width) => width < limit);
  const covering = IMAGE_WIDTHS.find((width) => width >= limit);
  const widths: readonly ImageWidth[] = covering ? [...smaller, covering] : smaller;
  return widths
    .map((width) => `${imageUrl(image.id, width)} ${Math.min(width, image.width)}w`)
    .join(', ');
}
