import { describe, expect, it } from 'vitest';
import {
  parseShareId,
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
    ['too short', 'AbCdEfGhIjKlMnO'],
    ['too long', `${ID}x`],
    ['odd characters', 'AbCdEfGh/jKlMn.p'],
    ['padding', 'AbCdEfGhIjKlMn=='],
    ['not a string', 12345],
    ['an object', { id: ID }],
  ])('refuses an id that is %s', (_, value) => {
    expect(parseShareId(value)).toBeUndefined();
  });

  it('takes a well-formed id, and the first of repeated ones, as a query gives them', () => {
    expect(parseShareId(ID)).toBe(ID);
    expect(parseShareId([ID, 'other'])).toBe(ID);
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
