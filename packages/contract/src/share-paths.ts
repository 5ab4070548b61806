import type { Language } from './language.ts';
import { API_BASE_PATH, BASE_PATH } from './site-paths.ts';

/**
 * The share pages' kinds, page paths, ids, failures, API paths and image URLs: plain code without
 * zod, so a page that only shows a share (rendered by the server) does not ship the schemas to the
 * phone. The schemas are in share.ts.
 */

/**
 * The kinds of share, each with its page (SHARE_PAGE_PATHS). A new kind starts here; every choice
 * made per kind is a `Record<ShareKind, …>`, so the compiler names each place that must handle it
 * (docs/architecture.md, "A new share kind").
 */
export const SHARE_KINDS = ['goods', 'cabinet', 'note'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

/**
 * Where each kind's share page is, under the base path, as SPEC.md writes it: the one list the
 * route table, the server's pages, the WeChat signature, robots.txt and the tests read.
 */
export const SHARE_PAGE_PATHS = {
  goods: '/AppShare/goodsShare',
  cabinet: '/AppShare/cabinetShare',
  note: '/AppShare/notesShare',
} as const satisfies Record<ShareKind, string>;

/**
 * The share page of an item under the base path (the router's kind of path), e.g.
 * `/AppShare/goodsShare?id=AbCd…`; without an id, the page itself.
 */
export function sharePagePath(kind: ShareKind, id?: string): string {
  const path = SHARE_PAGE_PATHS[kind];
  return id === undefined ? path : `${path}?id=${encodeURIComponent(id)}`;
}

const kindOfPage = new Map<string, ShareKind>(
  SHARE_KINDS.map((kind) => [`${BASE_PATH}${SHARE_PAGE_PATHS[kind]}`, kind]),
);

/**
 * The kind of share a full path shows (`/anime_merch_web/AppShare/goodsShare`), spelled as the
 * route table spells it; undefined for any other path.
 */
export function sharePageKind(pathname: string): ShareKind | undefined {
  return kindOfPage.get(pathname);
}

/**
 * The address a share page is rendered for and shared by (og:url, WeChat's card): its full path,
 * its id and its language, e.g. `/anime_merch_web/AppShare/goodsShare?id=AbCd…&lang=zh-CN`.
 * Without an id (a page that shows no item), the page in that language.
 */
export function sharePageAddress(
  kind: ShareKind,
  id: string | undefined,
  language: Language,
): string {
  const query = new URLSearchParams(id === undefined ? {} : { id });
  query.set('lang', language);
  return `${BASE_PATH}${SHARE_PAGE_PATHS[kind]}?${query.toString()}`;
}

/**
 * Public ids: the platform's ids, which the app's share links carry (PRODUCT.md, "The app's
 * platform"): 1 to PUBLIC_ID_MAX_LENGTH characters of `A–Z a–z 0–9 _ -`. The ids the site makes
 * itself (db/public-id.ts) are 16 of them, 96 random bits, so nobody can guess one or walk from
 * one to the next; the database's own row ids never leave the server.
 */
export const PUBLIC_ID_MAX_LENGTH = 64;
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

declare const publicIdBrand: unique symbol;
/** An id that parseShareId accepted: the only kind the share readers take. */
export type PublicId = string & { readonly [publicIdBrand]: true };

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

/**
 * The id from a query value (the first of repeated ones), or undefined when missing or malformed.
 * Parsed once where a request comes in; what it returns is trusted from there on.
 */
export function parseShareId(value: unknown): PublicId | undefined {
  const single: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof single === 'string' && PUBLIC_ID_PATTERN.test(single)
    ? (single as PublicId)
    : undefined;
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

/** How many goods the "more from this work" shelf shows at most. */
export const SHELF_SIZE = 6;

/**
 * Whether a share's page ends with the "more from this work" shelf: a goods shown, and every page
 * that cannot show its item. A cabinet lists its own goods and a note has none, so a shown cabinet
 * or note carries no shelf, not even in its data.
 */
export function pageHasShelf(kind: ShareKind, state: string): boolean {
  return kind === 'goods' || state !== 'ok';
}

/**
 * The API path of the shelf that ends a share's page (share-shelf.ts), e.g.
 * `/anime_merch_web/api/v1/shelf?kind=goods&id=AbCd…`; without an id (a missing or malformed
 * one), the shelf of a page that names no item.
 */
export const SHELF_API_PATH = `${API_BASE_PATH}/shelf`;

export function shelfApiPath(kind: ShareKind, id?: string): string {
  const query = new URLSearchParams({ kind });
  if (id !== undefined) query.set('id', id);
  return `${SHELF_API_PATH}?${query.toString()}`;
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
