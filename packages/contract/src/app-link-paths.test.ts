import { describe, expect, it } from 'vitest';
import { APP_LINK_SEGMENTS, appPath, universalLink } from './app-link-paths.ts';

describe('appPath', () => {
  it('names an item, and a goods at its image', () => {
    expect(appPath({ kind: 'note', id: 'n1' })).toBe('note/n1');
    expect(appPath({ kind: 'goods', id: 'g1', image: 2 })).toBe('goods/g1?image=2');
    expect(appPath(null)).toBe('');
  });

  it('opens a user with the item the tap came from, the image dropped', () => {
    expect(appPath({ kind: 'goods', id: 'g1', image: 2, place: { type: 'user', id: 'u_1' } })).toBe(
      'user/u_1?from=goods%2Fg1',
    );
  });

  it('opens a tag by its name, encoded', () => {
    expect(appPath({ kind: 'note', id: 'n1', place: { type: 'tag', name: '咒术 回战/2' } })).toBe(
      'tag/%E5%92%92%E6%9C%AF%20%E5%9B%9E%E6%88%98%2F2?from=note%2Fn1',
    );
  });

  it("opens a note at one of its comments; on other items a comment is the item's", () => {
    expect(appPath({ kind: 'note', id: 'n1', place: { type: 'comment', id: 'c9' } })).toBe(
      'note/n1?comment=c9',
    );
    expect(
      appPath({ kind: 'goods', id: 'g1', image: 0, place: { type: 'comment', id: 'c9' } }),
    ).toBe('goods/g1?image=0');
  });

  it('is the path of the Universal Link, on every segment the link domain claims', () => {
    expect(
      universalLink('https://link.example/', {
        kind: 'cabinet',
        id: 'c1',
        place: { type: 'user', id: 'u1' },
      }),
    ).toBe('https://link.example/user/u1?from=cabinet%2Fc1');
    expect(APP_LINK_SEGMENTS).toEqual(['goods', 'cabinet', 'note', 'user', 'tag']);
  });
});
