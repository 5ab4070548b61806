import { describe, expect, it } from 'vitest';
import {
  parseShareId,
  PUBLIC_ID_MAX_LENGTH,
  PUBLIC_ID_PATTERN,
  SHARE_KINDS,
  SHARE_PAGE_PATHS,
  sharePageAddress,
  sharePageKind,
  sharePagePath,
} from './share-paths.ts';

const ID = 'AbCdEfGhIjKlMnOp';

describe('parseShareId', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['one character too long (65)', 'a'.repeat(65)],
    ['far too long', 'A'.repeat(200)],
    ['odd characters', 'AbCdEfGh/jKlMn.p'],
    ['padding', 'AbCdEfGhIjKlMn=='],
    ['a space', 'goods 42'],
    ['non-ASCII letters', 'Güter'],
    ['a line break at the end', 'goods42\n'],
    ['not a string', 12345],
    ['an object', { id: ID }],
  ])('refuses an id that is %s', (_, value) => {
    expect(parseShareId(value)).toBeUndefined();
  });

  it('takes a well-formed id, and the first of repeated ones, as a query gives them', () => {
    expect(parseShareId(ID)).toBe(ID);
    expect(parseShareId([ID, 'other'])).toBe(ID);
  });

  it('takes the platform’s ids: 1 to 64 of A–Z a–z 0–9 _ -', () => {
    const longest = `${'Az09_-'.repeat(10)}Zz9_`;
    expect(longest).toHaveLength(PUBLIC_ID_MAX_LENGTH);
    for (const id of ['a', '7', '_', '-', 'goods_42', longest]) {
      expect(parseShareId(id), id).toBe(id);
      expect(PUBLIC_ID_PATTERN.test(id), id).toBe(true);
    }
    expect(PUBLIC_ID_PATTERN.test(`${longest}x`)).toBe(false);
  });
});

describe('share page paths', () => {
  it('give every kind its page, and each page its kind', () => {
    for (const kind of SHARE_KINDS) {
      expect(sharePageKind(`/anime_merch_web${SHARE_PAGE_PATHS[kind]}`)).toBe(kind);
      expect(sharePagePath(kind)).toBe(SHARE_PAGE_PATHS[kind]);
    }
    expect(new Set(Object.values(SHARE_PAGE_PATHS)).size).toBe(SHARE_KINDS.length);
  });

  it('know a share page by the spelling of the route table only', () => {
    expect(sharePageKind('/anime_merch_web/AppShare/goodsShare')).toBe('goods');
    expect(sharePageKind('/AppShare/goodsShare')).toBeUndefined();
    expect(sharePageKind('/anime_merch_web/website')).toBeUndefined();
  });

  it('build an item’s path under the base path and its address with the language', () => {
    expect(sharePagePath('goods', ID)).toBe(`/AppShare/goodsShare?id=${ID}`);
    expect(sharePageAddress('note', ID, 'en')).toBe(
      `/anime_merch_web/AppShare/notesShare?id=${ID}&lang=en`,
    );
    expect(sharePageAddress('cabinet', undefined, 'zh-CN')).toBe(
      '/anime_merch_web/AppShare/cabinetShare?lang=zh-CN',
    );
  });
});
