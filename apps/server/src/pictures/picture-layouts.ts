import type { ReactElement } from 'react';
import { PICTURE_SIZES, type PictureContent } from '@guquan/contract/share-pictures';

/**
 * How each picture is laid out. The texts and panels are one satori tree (drawn to SVG, text as
 * paths); the photos and the QR code go into fixed boxes that sharp fills (a photo decoded by
 * sharp costs far less than one embedded in the SVG). The colours are the site's tokens
 * (apps/web/src/styles/global.css).
 */

export const COLORS = {
  brand: '#ff5c8a',
  brandStrong: '#d6245a',
  text: '#1f1d2b',
  muted: '#5c5a6b',
  surface: '#ffffff',
  page: '#f5f4f8',
} as const;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface PictureLayout {
  width: number;
  height: number;
  /** The satori tree of everything but photos and the QR code (nothing drawn where they go). */
  tree: ReactElement;
  /** Photos, by image id, cropped to fill their box. */
  photos: { imageId: string; box: Box }[];
  /** The QR code's box (a square): posters only. */
  qr?: Box;
}

type Style = Record<string, string | number>;
type Child = ReactElement | string;

/** A satori node (satori reads React elements' shape: type, props, key). */
function h(type: 'div', style: Style, children: Child | Child[] = []): ReactElement {
  return { type, key: null, props: { style, children } };
}

function absolute(box: Box, style: Style = {}): Style {
  return { position: 'absolute', ...box, display: 'flex', ...style };
}

/** Text in at most `lines` lines, cut with an ellipsis. */
function lines(text: string, count: number, style: Style): ReactElement {
  return h('div', { display: 'block', lineClamp: count, whiteSpace: 'pre-line', ...style }, text);
}

function markPill(mark: string, fontSize: number): ReactElement {
  return h(
    'div',
    {
      display: 'flex',
      alignSelf: 'flex-start',
      background: COLORS.brand,
      color: COLORS.surface,
      fontWeight: 700,
      fontSize,
      padding: `${Math.round(fontSize * 0.2)}px ${Math.round(fontSize * 0.6)}px`,
      borderRadius: fontSize,
    },
    mark,
  );
}

/** The app's mark as a logo: its Chinese name in either language, as on the app's icon. */
const LOGO = '谷圈';

/** Where there is no photo: the app's colour with its logo. */
function markPanel(box: Box): ReactElement {
  return h(
    'div',
    absolute(box, {
      alignItems: 'center',
      justifyContent: 'center',
      background: COLORS.brand,
      color: COLORS.surface,
      fontWeight: 700,
      fontSize: Math.round(Math.min(box.width, box.height) / 4.5),
    }),
    LOGO,
  );
}

/** A note without pictures: its first lines, large, on the app's colour, in place of a photo. */
function quotePanel(box: Box, quote: string): ReactElement {
  const padding = Math.round(box.width / 12);
  const fontSize = Math.round(box.width / 16);
  return h(
    'div',
    absolute(box, { flexDirection: 'column', background: COLORS.brand, color: COLORS.surface }),
    [
      h(
        'div',
        absolute(
          {
            left: padding,
            top: padding,
            width: box.width - 2 * padding,
            height: box.height - 2 * padding,
          },
          { flexDirection: 'column', justifyContent: 'center' },
        ),
        [lines(quote, 7, { fontSize, fontWeight: 700, lineHeight: 1.5 })],
      ),
    ],
  );
}

/** What stands where a picture's first photo would be, when it has none. */
function photoless(content: PictureContent, box: Box): ReactElement {
  return content.kind === 'note' && content.detail
    ? quotePanel(box, content.detail)
    : markPanel(box);
}

function detailStyle(content: PictureContent, fontSize: number): Style {
  if (content.kind === 'goods')
    return { fontSize, fontWeight: 700, color: COLORS.brandStrong, marginTop: 20 };
  if (content.kind === 'note')
    return { fontSize: Math.round(fontSize * 0.72), color: COLORS.text, marginTop: 20 };
  return { fontSize: Math.round(fontSize * 0.85), color: COLORS.muted, marginTop: 20 };
}

/**
 * The whole picture's box, on the page colour (it shows between a poster's photos): the drawing
 * is the base the photos and the QR code are laid on, so no blank canvas is composited under it.
 */
function root(width: number, height: number, family: string, children: ReactElement[]) {
  return h(
    'div',
    {
      display: 'flex',
      position: 'relative',
      width,
      height,
      fontFamily: family,
      background: COLORS.page,
    },
    children,
  );
}

/** Every string a picture draws: its font slices are picked from it. */
export function pictureText(content: PictureContent): string {
  return [
    LOGO,
    content.title,
    content.subtitle,
    content.detail,
    content.owner,
    content.mark,
    content.scan,
  ]
    .filter(Boolean)
    .join('\n');
}

const CARD_PADDING = 48;

/** The 1200×630 preview card: the first photo on the left, the texts on the right. */
export function cardLayout(content: PictureContent, family: string): PictureLayout {
  const { width, height } = PICTURE_SIZES.card;
  const photoBox: Box = { left: 0, top: 0, width: height, height };
  const [first] = content.images;
  const panel: Box = { left: height, top: 0, width: width - height, height };
  // Boxes are sized without their padding (satori's layout): the texts get an inner box.
  const inner: Box = {
    left: panel.left + CARD_PADDING,
    top: CARD_PADDING,
    width: panel.width - 2 * CARD_PADDING,
    height: height - 2 * CARD_PADDING,
  };
  const isNote = content.kind === 'note';
  // A note without photos shows its first lines in the photo's place: not twice.
  const detail = first === undefined && isNote ? '' : content.detail;
  const texts = h('div', absolute(inner, { flexDirection: 'column', color: COLORS.text }), [
    ...(content.subtitle
      ? [lines(content.subtitle, 1, { fontSize: 26, color: COLORS.muted, marginBottom: 12 })]
      : []),
    lines(content.title, isNote ? 2 : 3, { fontSize: 48, fontWeight: 700, lineHeight: 1.3 }),
    ...(detail
      ? [lines(detail, isNote ? 4 : 2, { lineHeight: 1.45, ...detailStyle(content, 40) })]
      : []),
    h('div', { display: 'flex', flexGrow: 1 }),
    ...(content.owner
      ? [lines(content.owner, 1, { fontSize: 28, color: COLORS.muted, marginBottom: 20 })]
      : []),
    markPill(content.mark, 26),
  ]);
  const background = h('div', absolute(panel, { background: COLORS.surface }));
  const children = [
    background,
    ...(first === undefined ? [photoless(content, photoBox)] : []),
    texts,
  ];
  return {
    width,
    height,
    tree: root(width, height, family, children),
    photos: first === undefined ? [] : [{ imageId: first, box: photoBox }],
  };
}

/** Gap between a poster's photos. */
const GAP = 12;
const POSTER_PHOTOS_HEIGHT = 1020;
const POSTER_THUMB_HEIGHT = 240;
const QR_SIZE = 280;

/** The boxes of a poster's photos: one large, the others in a row beneath it. */
function posterPhotoBoxes(count: number, width: number): Box[] {
  if (count <= 1) return [{ left: 0, top: 0, width, height: POSTER_PHOTOS_HEIGHT }];
  const mainHeight = POSTER_PHOTOS_HEIGHT - POSTER_THUMB_HEIGHT - GAP;
  const others = count - 1;
  const thumbWidth = Math.floor((width - GAP * (others - 1)) / others);
  return [
    { left: 0, top: 0, width, height: mainHeight },
    ...Array.from({ length: others }, (_, index) => ({
      left: index * (thumbWidth + GAP),
      top: mainHeight + GAP,
      width: index === others - 1 ? width - index * (thumbWidth + GAP) : thumbWidth,
      height: POSTER_THUMB_HEIGHT,
    })),
  ];
}

/**
 * The 1080×1440 poster (3:4, the shape Moments and Xiaohongshu show whole): the photos on top;
 * beneath them the texts on the left, the QR code and "scan to view" on the right.
 */
export function posterLayout(content: PictureContent, family: string): PictureLayout {
  const { width, height } = PICTURE_SIZES.poster;
  const boxes = posterPhotoBoxes(content.images.length, width);
  const photos = content.images.flatMap((imageId, index) => {
    const box = boxes[index];
    return box ? [{ imageId, box }] : [];
  });
  const top = POSTER_PHOTOS_HEIGHT + 36;
  const qr: Box = { left: width - 60 - QR_SIZE, top, width: QR_SIZE, height: QR_SIZE };
  const textBox: Box = { left: 60, top, width: qr.left - 60 - 40, height: height - top - 36 };
  const children: ReactElement[] = [
    h(
      'div',
      absolute(
        { left: 0, top: POSTER_PHOTOS_HEIGHT, width, height: height - POSTER_PHOTOS_HEIGHT },
        { background: COLORS.surface },
      ),
    ),
    ...(photos.length === 0
      ? [photoless(content, boxes[0] ?? { left: 0, top: 0, width, height: POSTER_PHOTOS_HEIGHT })]
      : []),
    h('div', absolute(textBox, { flexDirection: 'column', color: COLORS.text }), [
      ...(content.subtitle
        ? [lines(content.subtitle, 1, { fontSize: 28, color: COLORS.muted, marginBottom: 10 })]
        : []),
      lines(content.title, 2, { fontSize: 50, fontWeight: 700, lineHeight: 1.3 }),
      ...(content.detail && !(photos.length === 0 && content.kind === 'note')
        ? [
            lines(content.detail, content.kind === 'note' ? 2 : 1, {
              lineHeight: 1.4,
              ...detailStyle(content, 40),
            }),
          ]
        : []),
      h('div', { display: 'flex', flexGrow: 1 }),
      ...(content.owner
        ? [lines(content.owner, 1, { fontSize: 30, color: COLORS.muted, marginBottom: 16 })]
        : []),
      markPill(content.mark, 28),
    ]),
    h(
      'div',
      absolute(
        { left: qr.left - 20, top: qr.top + QR_SIZE + 6, width: QR_SIZE + 40, height: 50 },
        { justifyContent: 'center', fontSize: 30, color: COLORS.muted },
      ),
      content.scan,
    ),
  ];
  return {
    width,
    height,
    tree: root(width, height, family, children),
    photos,
    qr,
  };
}

/** WeChat's 300×300 square: the first photo (the mark on the app's colour when there is none). */
export function squareLayout(content: PictureContent, family: string): PictureLayout {
  const { width, height } = PICTURE_SIZES.square;
  const box: Box = { left: 0, top: 0, width, height };
  const [first] = content.images;
  return {
    width,
    height,
    tree: root(width, height, family, first === undefined ? [markPanel(box)] : []),
    photos: first === undefined ? [] : [{ imageId: first, box }],
  };
}

export function layoutOf(content: PictureContent, family: string): PictureLayout {
  if (content.picture === 'poster') return posterLayout(content, family);
  if (content.picture === 'square') return squareLayout(content, family);
  return cardLayout(content, family);
}
