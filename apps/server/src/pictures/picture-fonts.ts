import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The font pictures are drawn in: Noto Sans SC (SIL Open Font License 1.1), installed from the npm
 * registry as @fontsource/noto-sans-sc, never the machine's fonts. The package cuts the font into
 * about a hundred slices by Unicode range (Google Fonts' slicing; its CSS names each slice's
 * range): a picture loads only the slices its text needs, so a process holds the few slices its
 * pictures use, not the 9 MB of the whole font in two weights. Each slice is read once and its
 * buffer kept, which also keeps satori's parse of it (satori caches parsed fonts by buffer).
 */

export type FontWeight = 400 | 700;
export const FONT_WEIGHTS: readonly FontWeight[] = [400, 700];

/** A font as satori takes it. */
export interface SatoriFont {
  name: string;
  data: Buffer;
  weight: FontWeight;
  style: 'normal';
}

interface Slice {
  file: string;
  ranges: readonly (readonly [number, number])[];
}

export interface PictureFonts {
  /** The slices that draw `text` in each weight, and the family list that names them. */
  fontsFor(text: string): { fonts: SatoriFont[]; family: string };
  /** Whether some slice has a glyph for this code point. */
  covers(codePoint: number): boolean;
  /** `text` without emoji and the characters no slice has (never drawn as boxes or gaps). */
  drawable(text: string): string;
}

function packageDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@fontsource/noto-sans-sc/package.json'));
}

/** `U+4e00-4e3f,U+3000` → [[0x4e00, 0x4e3f], [0x3000, 0x3000]]. */
function parseUnicodeRange(range: string): [number, number][] {
  return range.split(',').map((part) => {
    const [from = '0', to] = part.trim().replace(/^U\+/i, '').split('-');
    const start = Number.parseInt(from, 16);
    return [start, to === undefined ? start : Number.parseInt(to, 16)];
  });
}

/** The slices of one weight, as the package's CSS lists them (file name and Unicode range). */
export function slicesOf(css: string): Slice[] {
  const slices: Slice[] = [];
  for (const block of css.split('@font-face').slice(1)) {
    const file = /url\(\.\/files\/([^)]+)\.woff2\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (file && range) slices.push({ file, ranges: parseUnicodeRange(range) });
  }
  return slices;
}

/**
 * The slice that draws a code point. Slices overlap (several carry the ASCII letters): as in a
 * browser, the face declared last wins, which for ASCII is the Latin slice.
 */
function sliceIndex(slices: readonly Slice[], codePoint: number): number {
  return slices.findLastIndex((slice) =>
    slice.ranges.some(([from, to]) => codePoint >= from && codePoint <= to),
  );
}

/**
 * Emoji and their joiners and modifiers: satori draws an emoji only from a picture of it (which we
 * do not ship), never from a font, so they are left out rather than left as gaps.
 */
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0f/u;

/** Characters that are layout, not glyphs: never looked up, never dropped. */
function isLayout(codePoint: number): boolean {
  return codePoint === 0x0a || codePoint === 0x20;
}

export function loadPictureFonts(dir = packageDir()): PictureFonts {
  const slices = new Map<FontWeight, Slice[]>(
    FONT_WEIGHTS.map((weight) => [
      weight,
      slicesOf(readFileSync(join(dir, `${weight}.css`), 'utf8')),
    ]),
  );
  const regular = slices.get(400) ?? [];
  if (regular.length === 0) throw new Error(`No font slices found in ${dir}`);
  const buffers = new Map<string, Buffer>();
  const lookups = new Map<number, number>();

  function buffer(file: string): Buffer {
    let data = buffers.get(file);
    if (!data) {
      data = readFileSync(join(dir, 'files', `${file}.woff2`));
      buffers.set(file, data);
    }
    return data;
  }

  // Slice numbers are the same in both weights (one slicing of the font): index by the regular.
  function indexOf(codePoint: number): number {
    let index = lookups.get(codePoint);
    if (index === undefined) {
      index = sliceIndex(regular, codePoint);
      lookups.set(codePoint, index);
    }
    return index;
  }

  return {
    fontsFor(text) {
      const used = new Set<number>();
      for (const character of text) {
        const codePoint = character.codePointAt(0) ?? 0;
        if (isLayout(codePoint)) continue;
        const index = indexOf(codePoint);
        if (index >= 0) used.add(index);
      }
      // Latin first: spaces and digits come from it, as a browser would take them.
      const latin = regular.findIndex((slice) => slice.file.endsWith('-latin-400-normal'));
      const order = [...(latin >= 0 ? [latin] : []), ...[...used].filter((i) => i !== latin)];
      const fonts: SatoriFont[] = [];
      for (const weight of FONT_WEIGHTS) {
        const ofWeight = slices.get(weight) ?? [];
        for (const index of order) {
          const slice = ofWeight[index];
          if (slice)
            fonts.push({ name: `s${index}`, data: buffer(slice.file), weight, style: 'normal' });
        }
      }
      return { fonts, family: order.map((index) => `s${index}`).join(', ') };
    },
    covers(codePoint) {
      return isLayout(codePoint) || indexOf(codePoint) >= 0;
    },
    drawable(text) {
      let kept = '';
      for (const character of text) {
        if (EMOJI.test(character)) continue;
        const codePoint = character.codePointAt(0) ?? 0;
        if (isLayout(codePoint) || indexOf(codePoint) >= 0) kept += character;
      }
      return kept;
    },
  };
}
