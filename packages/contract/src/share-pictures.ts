import type { Language } from './language.ts';
import { formatPrice } from './price.ts';
import type { GoodsStatus, Image, ShareItems } from './share.ts';
import type { ShareKind } from './share-paths.ts';
import { shareTitle } from './share-titles.ts';
import { BASE_PATH } from './site-paths.ts';

/**
 * The pictures a share travels with (docs/decisions/0019-share-pictures.md): the 1200×630 preview
 * card of og:image, the portrait poster with a QR code, and WeChat's square. The server draws each
 * from a `PictureContent`, everything the picture shows and nothing else, and its address carries
 * the hash of that content: the web app writes the card's address into the page from the same
 * function, the server answers only the address of what is current. Plain code without zod (the
 * share pages' start-up JavaScript imports it).
 */

export const PICTURES_PATH = `${BASE_PATH}/pictures`;

export const PICTURE_SIZES = {
  card: { width: 1200, height: 630 },
  poster: { width: 1080, height: 1440 },
  square: { width: 300, height: 300 },
} as const;
export type PictureName = keyof typeof PICTURE_SIZES;

/**
 * The drawing's own version: part of every picture's hash, so a change to how pictures are drawn
 * (pictures/ on the server) gives every one a new address. Bump it with any such change.
 */
export const PICTURE_DESIGN = 2;

/** How many of an item's pictures a poster shows (the first large, the others beside it). */
export const POSTER_IMAGE_COUNT = 4;

interface PictureTexts {
  mark: string;
  scan: string;
  status: Readonly<Record<GoodsStatus, string>>;
  owner: string;
  author: string;
  items: (count: number) => string;
  neutralTitle: string;
  neutralDetail: string;
  cardAlt: string;
  posterAlt: string;
  squareAlt: string;
  neutralAlt: string;
}

const TEXTS: Readonly<Record<Language, PictureTexts>> = {
  'zh-CN': {
    mark: '谷圈',
    scan: '扫码查看',
    status: { display: '展示中', selling: '出', wanted: '收' },
    owner: '谷主 {name}',
    author: '作者 {name}',
    items: (count) => `共 ${count} 件谷子`,
    neutralTitle: '谷圈',
    neutralDetail: '收谷、晒柜、写笔记，和同好安心交换谷子',
    cardAlt: '「{title}」的分享卡片：{detail}，{owner}',
    posterAlt: '「{title}」的分享海报：{detail}，{owner}，附可扫码查看的二维码',
    squareAlt: '分享图片',
    neutralAlt: '谷圈分享卡片',
  },
  en: {
    mark: 'Goods Circle',
    scan: 'Scan to view',
    status: { display: 'On show', selling: 'For sale', wanted: 'Wanted' },
    owner: 'by {name}',
    author: 'by {name}',
    items: (count) => (count === 1 ? '1 item' : `${count} items`),
    neutralTitle: 'Goods Circle',
    neutralDetail: 'Collect, show and swap anime merch with fellow fans',
    cardAlt: 'Share card of “{title}”: {detail}, {owner}',
    posterAlt: 'Share poster of “{title}”: {detail}, {owner}, with a QR code to scan to view it',
    squareAlt: 'Share picture',
    neutralAlt: 'Goods Circle share card',
  },
};

/** Everything a picture shows, and so everything its address depends on. */
export interface PictureContent {
  design: number;
  picture: PictureName;
  /** The item's kind, or `neutral` for the picture that reveals nothing. */
  kind: ShareKind | 'neutral';
  /** The item's public id (none for neutral pictures). */
  id: string | null;
  /** The language of its texts (a square has none). */
  language: Language | null;
  title: string;
  /** Goods: the work and character. */
  subtitle: string;
  /** Goods: price or status; cabinet: the item count; note: its first lines. */
  detail: string;
  /** The owner's or author's name with its label ("谷主 …", "by …"). */
  owner: string;
  /** Ids of the images shown, in order. */
  images: readonly string[];
  /** Posters: the address the QR code holds. */
  link: string | null;
  mark: string;
  /** Posters: the line beside the QR code. */
  scan: string;
}

/** At most `length` characters as a reader counts them (an emoji or a combined mark is one). */
function graphemes(text: string, length: number): string {
  const parts = Array.from(new Intl.Segmenter().segment(text), (part) => part.segment);
  return parts.length > length ? `${parts.slice(0, length).join('')}…` : text;
}

/** A note's first lines: what its card shows of its text (blank lines dropped, bounded). */
function firstLines(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .slice(0, 3);
  return graphemes(lines.join('\n'), 90);
}

function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

interface Described {
  title: string;
  subtitle: string;
  detail: string;
  owner: string;
  /** All images the item could show, first the one it is known by. */
  images: readonly string[];
}

/**
 * The ids of the images whose files are here. One still being fetched from the platform is left
 * out (a card then shows its next photo, or the panel that stands for none): the content, and so
 * the picture's address, changes when it arrives, and the picture is drawn again with it.
 */
function shown(images: readonly Image[]): string[] {
  return images.filter((image) => image.missing !== true).map((image) => image.id);
}

/** What each kind's pictures say of an item. */
const DESCRIPTIONS: {
  readonly [K in ShareKind]: (item: ShareItems[K], texts: PictureTexts) => Described;
} = {
  goods: (goods, texts) => {
    const status = texts.status[goods.status];
    return {
      title: shareTitle('goods', goods),
      subtitle: [goods.work, goods.character].filter(Boolean).join(' · '),
      detail: goods.priceFen === null ? status : `${formatPrice(goods.priceFen)} · ${status}`,
      owner: fill(texts.owner, { name: goods.owner.nickname }),
      images: shown(goods.images),
    };
  },
  cabinet: (cabinet, texts) => ({
    title: shareTitle('cabinet', cabinet),
    subtitle: '',
    detail: texts.items(cabinet.itemCount),
    owner: fill(texts.owner, { name: cabinet.owner.nickname }),
    images: shown([cabinet.cover, ...cabinet.items.map((goods) => goods.cover)]),
  }),
  note: (note, texts) => ({
    title: shareTitle('note', note),
    subtitle: '',
    detail: firstLines(note.text),
    owner: fill(texts.author, { name: note.author.nickname }),
    images: shown(note.images),
  }),
};

function describe<K extends ShareKind>(
  kind: K,
  item: ShareItems[K],
  texts: PictureTexts,
): Described {
  return DESCRIPTIONS[kind](item, texts);
}

/** The preview card of an item: its first picture, name, price/status, count or first lines, owner. */
export function cardContent<K extends ShareKind>(
  kind: K,
  item: ShareItems[K],
  language: Language,
): PictureContent {
  const texts = TEXTS[language];
  const described = describe(kind, item, texts);
  return {
    design: PICTURE_DESIGN,
    picture: 'card',
    kind,
    id: item.id,
    language,
    title: described.title,
    subtitle: described.subtitle,
    detail: described.detail,
    owner: described.owner,
    images: described.images.slice(0, 1),
    link: null,
    mark: texts.mark,
    scan: '',
  };
}

/** The poster of an item: its pictures, texts, and a QR code of `link` (its Universal Link). */
export function posterContent<K extends ShareKind>(
  kind: K,
  item: ShareItems[K],
  language: Language,
  link: string,
): PictureContent {
  const texts = TEXTS[language];
  return {
    ...cardContent(kind, item, language),
    picture: 'poster',
    images: describe(kind, item, texts).images.slice(0, POSTER_IMAGE_COUNT),
    link,
    scan: texts.scan,
  };
}

/** WeChat's square: the item's first picture alone (the app's mark when it has none). */
export function squareContent<K extends ShareKind>(kind: K, item: ShareItems[K]): PictureContent {
  const first = describe(kind, item, TEXTS['zh-CN']).images[0];
  if (first === undefined) return neutralContent('square', null);
  return {
    design: PICTURE_DESIGN,
    picture: 'square',
    kind,
    id: item.id,
    language: null,
    title: '',
    subtitle: '',
    detail: '',
    owner: '',
    images: [first],
    link: null,
    mark: '',
    scan: '',
  };
}

/** The card (or square) of a share that cannot be shown: the app's mark and line, nothing of the item. */
export function neutralContent(
  picture: 'card' | 'square',
  language: Language | null,
): PictureContent {
  const texts = language ? TEXTS[language] : undefined;
  return {
    design: PICTURE_DESIGN,
    picture,
    kind: 'neutral',
    id: null,
    language,
    title: texts?.neutralTitle ?? '',
    subtitle: '',
    detail: texts?.neutralDetail ?? '',
    owner: '',
    images: [],
    link: null,
    // A square has no language; its mark is the app's own name.
    mark: (texts ?? TEXTS['zh-CN']).mark,
    scan: '',
  };
}

/** cyrb53 (a public-domain string hash): 53 well-mixed bits, the same in Node and every browser. */
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const VERSION_PATTERN = '[0-9a-z]{22}';

/**
 * The version of a picture: a hash of everything it shows (106 bits from two seeds). Not a secret
 * and not a signature: the server checks it against the item's current content before serving.
 */
export function pictureVersion(content: PictureContent): string {
  const text = JSON.stringify(content);
  return [0, 1].map((seed) => cyrb53(text, seed).toString(36).padStart(11, '0')).join('');
}

/** The address of a picture under the base path, its version in it. */
export function pictureUrl(content: PictureContent): string {
  const language = content.language ? `.${content.language}` : '';
  const file = `${content.picture}${language}.${pictureVersion(content)}.jpg`;
  return content.kind === 'neutral'
    ? `${PICTURES_PATH}/neutral/${file}`
    : `${PICTURES_PATH}/${content.kind}/${content.id ?? ''}/${file}`;
}

/** What a picture's file name says: which picture, in which language, of which version. */
export interface PictureFile {
  picture: PictureName;
  language: Language | null;
  version: string;
}

const FILE_PATTERN = new RegExp(
  `^(?:(card|poster)\\.(zh-CN|en)|(square))\\.(${VERSION_PATTERN})\\.jpg$`,
);

/** The file name of a picture's address, or undefined when it names none. */
export function parsePictureFile(file: string): PictureFile | undefined {
  const match = FILE_PATTERN.exec(file);
  if (!match) return undefined;
  const [, named, language, square, version] = match;
  if (version === undefined) return undefined;
  if (square) return { picture: 'square', language: null, version };
  if (named !== 'card' && named !== 'poster') return undefined;
  return { picture: named, language: language === 'en' ? 'en' : 'zh-CN', version };
}

/** Each picture's text alternative, from what it shows. */
const ALTS: {
  readonly [P in PictureName]: (texts: PictureTexts, content: PictureContent) => string;
} = {
  card: (texts, { title, detail, owner }) =>
    fill(texts.cardAlt, { title, detail: detail.replace(/\n/g, ' '), owner }),
  poster: (texts, { title, detail, owner }) => fill(texts.posterAlt, { title, detail, owner }),
  square: (texts) => texts.squareAlt,
};

/** The text alternative of a picture: what it shows, in its language. */
export function pictureAlt(content: PictureContent): string {
  const texts = TEXTS[content.language ?? 'zh-CN'];
  return content.kind === 'neutral' ? texts.neutralAlt : ALTS[content.picture](texts, content);
}
