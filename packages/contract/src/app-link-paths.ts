import { SHARE_KINDS, type ShareKind } from './share-paths.ts';
import { DEFAULT_LANGUAGE, type Language } from './language.ts';
import { API_BASE_PATH } from './site-paths.ts';

/**
 * The app's link domain (LINK_ORIGIN; docs/decisions/0017-app-links-and-handoffs.md): what the app opens, the Universal Link of an
 * item, the handoff code of a share text. Plain code without zod: share pages import it at
 * start-up. The API's schemas are in app-links.ts.
 */

/**
 * A place in the app that a tap on a share page leads to, other than the item itself: a user (the
 * owner, an author, a commenter, a mention), a tag, one of a note's comments.
 */
export type AppPlace =
  { type: 'user'; id: string } | { type: 'tag'; name: string } | { type: 'comment'; id: string };

/**
 * Where the app opens: an item (for goods, the image being viewed, counted from 0), or its start.
 * With a place, the app opens there instead; the item stays what the page is about (the funnel's
 * counts, the handoff code, where the link domain sends a visitor without the app).
 */
export type AppTarget = { kind: ShareKind; id: string; image?: number; place?: AppPlace } | null;

/** The highest image index a link carries (goods have at most 20 images). */
export const MAX_IMAGE_INDEX = 99;

/** The first path segment of each kind on the link domain and in the app's own paths. */
export const APP_PATH_SEGMENTS: Readonly<Record<ShareKind, string>> = {
  goods: 'goods',
  cabinet: 'cabinet',
  note: 'note',
};

/** The first path segment of the places that are not items: `user/<id>`, `tag/<name>`. */
export const APP_PLACE_SEGMENTS = { user: 'user', tag: 'tag' } as const;

/** Every first path segment the app opens on the link domain: the items', then the places'. */
export const APP_LINK_SEGMENTS: readonly string[] = [
  ...Object.values(APP_PATH_SEGMENTS),
  ...Object.values(APP_PLACE_SEGMENTS),
];

/**
 * On a place's link, the item whose page the tap came from (`from=note%2F<id>`): where the link
 * domain sends a visitor without the app. The app itself ignores it.
 */
export const FROM_PARAM = 'from';
/** On a note's link, the comment the app opens the note at (`note/<id>?comment=<id>`). */
export const COMMENT_PARAM = 'comment';

/** The kind whose items a first path segment names (`goods`), or undefined. */
export function kindOfAppSegment(segment: string): ShareKind | undefined {
  return SHARE_KINDS.find((kind) => APP_PATH_SEGMENTS[kind] === segment);
}

/**
 * Kinds the app opens at the image being viewed (goods: the page opens on its gallery): only
 * their targets, links and handoffs carry an image.
 */
const OPENS_AT_IMAGE: Readonly<Record<ShareKind, boolean>> = {
  goods: true,
  cabinet: false,
  note: false,
};

export function opensAtImage(kind: ShareKind): boolean {
  return OPENS_AT_IMAGE[kind];
}

/**
 * The app's own path of a target: `goods/<id>?image=2`, or '' for the start screen; with a place,
 * `user/<id>?from=note%2F<id>`, `tag/<name>?from=…` or `note/<id>?comment=<id>`.
 */
export function appPath(target: AppTarget): string {
  if (!target) return '';
  const path = `${APP_PATH_SEGMENTS[target.kind]}/${encodeURIComponent(target.id)}`;
  const { place } = target;
  if (place) {
    const from = `${FROM_PARAM}=${encodeURIComponent(path)}`;
    switch (place.type) {
      case 'user':
        return `${APP_PLACE_SEGMENTS.user}/${encodeURIComponent(place.id)}?${from}`;
      case 'tag':
        return `${APP_PLACE_SEGMENTS.tag}/${encodeURIComponent(place.name)}?${from}`;
      case 'comment':
        // Only notes have comments: on any other item the place is the item itself.
        if (target.kind === 'note')
          return `${path}?${COMMENT_PARAM}=${encodeURIComponent(place.id)}`;
    }
  }
  return target.image === undefined ? path : `${path}?image=${target.image}`;
}

/**
 * An item's Universal Link (iOS) and App Link (Android): `<link origin>/goods/<id>?image=2`. The
 * origin is the server's LINK_ORIGIN: pages get it from the server (link-origin-meta.ts).
 */
export function universalLink(linkOrigin: string, target: AppTarget): string {
  return `${linkOrigin.replace(/\/$/, '')}/${appPath(target)}`;
}

/**
 * The share page's query parameter that says the visitor came through the link domain's fallback:
 * the app did not open the link (not installed), so "Get the app" comes first.
 */
export const APP_MISSING_PARAM = 'app';
export const APP_MISSING_VALUE = 'missing';
/** The image a share page opens on (goods), from the link domain's `?image=`. */
export const IMAGE_PARAM = 'image';

/** A valid image index from a query value, else undefined. */
export function parseImageIndex(value: string | null | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,2}$/.test(value)) return undefined;
  const index = Number(value);
  return index <= MAX_IMAGE_INDEX ? index : undefined;
}

// --- Handoffs: the code a share text carries through an install (docs/decisions/0017-app-links-and-handoffs.md) ---

export const APP_LINK_HANDOFFS_PATH = `${API_BASE_PATH}/app-links/handoffs`;
export const APP_LINK_CLAIMS_PATH = `${API_BASE_PATH}/app-links/claims`;

/**
 * A handoff code: 12 characters of Crockford's base32 (digits and capitals without I, L, O, U),
 * 60 random bits. Written between two ￥ in the share text, which is what the app looks for.
 */
export const HANDOFF_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const HANDOFF_CODE_LENGTH = 12;
export const HANDOFF_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{12}$/;
/** What the app searches the clipboard for: the code between full-width yen signs. */
export const SHARE_TEXT_CODE_PATTERN = /￥([0-9A-HJKMNP-TV-Z]{12})￥/;

/** How long a code can be claimed. */
export const HANDOFF_VALID_DAYS = 7;

/** The share text's brand, before the item's title, in the language of the page that copies it. */
const SHARE_TEXT_BRAND: Readonly<Record<Language, string>> = {
  'zh-CN': '【谷圈】',
  en: '[Goods Circle] ',
};

/**
 * The text the tap that heads for the store copies, the way 淘口令 works:
 * `【谷圈】<title> ￥<code>￥ <Universal Link>` (on an English page `[Goods Circle] <title> …`: the
 * code's ￥ marks are what the app looks for, in either language); without a code (it could not be
 * had), the title and the link alone, which the app opens without any call.
 */
export function shareText(
  title: string,
  link: string,
  code?: string,
  language: Language = DEFAULT_LANGUAGE,
): string {
  const name = title.replace(/\s+/g, ' ').trim();
  const parts = [`${SHARE_TEXT_BRAND[language]}${name}`, ...(code ? [`￥${code}￥`] : []), link];
  return parts.join(' ');
}
