import satori from 'satori';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cardContent, neutralContent, posterContent } from '@guquan/contract/share-pictures';
import { SAMPLE_ITEMS, demoPictureTexts } from '../test-support/pictures.ts';
import { loadPictureFonts, type SatoriFont } from './picture-fonts.ts';
import { pictureText } from './picture-layouts.ts';

const fonts = loadPictureFonts();

/** One character drawn at 64 px by satori in `fonts`, as raw grey pixels. */
async function drawn(character: string, slices: SatoriFont[], family: string): Promise<Buffer> {
  const svg = await satori(
    {
      type: 'div',
      key: null,
      props: { style: { display: 'flex', fontSize: 64, fontFamily: family }, children: character },
    },
    { width: 80, height: 80, fonts: slices },
  );
  return sharp(Buffer.from(svg)).flatten({ background: '#fff' }).greyscale().raw().toBuffer();
}

/** The Latin slice alone: a font with no CJK at all. */
const latinOnly = fonts.fontsFor('a');

/** Every character the pictures' own texts and the demo items' names and owners use. */
function picturedCharacters(): string[] {
  const texts = [
    ...(['zh-CN', 'en'] as const).map((language) => pictureText(neutralContent('card', language))),
    ...SAMPLE_ITEMS.flatMap(([kind, item]) =>
      (['zh-CN', 'en'] as const).map((language) =>
        pictureText(posterContent(kind, item, language, 'https://link.example/x')),
      ),
    ),
    ...demoPictureTexts(),
  ];
  // Emoji are left out of pictures (drawable()), so they are no missing glyph.
  // Code points on purpose (emoji are gone): each is looked up and drawn on its own.
  return [...new Set(Array.from(fonts.drawable(texts.join(''))))].filter((c) => !/\s/.test(c));
}

describe('the pictures’ font', () => {
  it('comes from the registry package, a slice at a time: the slices a text needs, Latin first', () => {
    const { fonts: slices, family } = fonts.fontsFor('谷圈 Scan');
    expect(family.split(', ')[0]).toBe(latinOnly.family);
    expect(new Set(slices.map((font) => font.weight))).toEqual(new Set([400, 700]));
    expect(slices.length).toBeLessThanOrEqual(2 * 3);
  });

  it('draws every character of the pictures’ texts and the demo items, none as a missing glyph', async () => {
    const characters = picturedCharacters();
    expect(characters).toContain('谷');
    const missing: string[] = [];
    for (const character of characters) {
      if (!fonts.covers(character.codePointAt(0) ?? 0)) missing.push(character);
    }
    expect(missing).toEqual([]);
    // Drawn in a font without CJK every such character is the same missing glyph (a box, next
    // test); in ours none may be.
    const box = await drawn('谷', latinOnly.fonts, latinOnly.family);
    for (const character of characters.filter((c) => (c.codePointAt(0) ?? 0) > 0x2e80)) {
      const { fonts: slices, family } = fonts.fontsFor(character);
      const ours = await drawn(character, slices, family);
      expect(ours.equals(box), `${character} is drawn as a missing glyph`).toBe(false);
    }
  });

  it('tells a missing glyph apart: two CJK characters without a CJK font are the same box', async () => {
    const first = await drawn('谷', latinOnly.fonts, latinOnly.family);
    const second = await drawn('圈', latinOnly.fonts, latinOnly.family);
    expect(first.equals(second)).toBe(true);
    const { fonts: slices, family } = fonts.fontsFor('谷圈');
    expect((await drawn('谷', slices, family)).equals(await drawn('圈', slices, family))).toBe(
      false,
    );
  });

  it('leaves out what it cannot draw (emoji, a flag), rather than draw a box or a gap', () => {
    expect(fonts.drawable('谷子🦄 ok👍🏽🇨🇳')).toBe('谷子 ok');
  });
});

describe('what a card shows', () => {
  it('has its owner, its price or count, and only its first picture', () => {
    for (const [kind, item] of SAMPLE_ITEMS) {
      const card = cardContent(kind, item, 'zh-CN');
      expect(card.images.length).toBeLessThanOrEqual(1);
      expect(card.owner).toMatch(/^(谷主|作者) /);
    }
  });
});
