import { describe, expect, it } from 'vitest';
import { shareShouldRevalidate } from './share-revalidate';

const page = 'http://x/anime_merch_web/AppShare/goodsShare';
const args = (current: string, next: string, formMethod?: 'POST') =>
  ({
    currentUrl: new URL(current),
    nextUrl: new URL(next),
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
    formMethod,
  }) as Parameters<typeof shareShouldRevalidate>[0];

describe('shareShouldRevalidate', () => {
  it('keeps the item for another history entry of the same share', () => {
    expect(shareShouldRevalidate(args(`${page}?id=a`, `${page}?id=a`))).toBe(false);
    expect(shareShouldRevalidate(args(`${page}?id=a`, `${page}?id=a&lang=en`))).toBe(false);
  });

  it('loads another share', () => {
    expect(shareShouldRevalidate(args(`${page}?id=a`, `${page}?id=b`))).toBe(true);
    expect(
      shareShouldRevalidate(
        args(`${page}?id=a`, 'http://x/anime_merch_web/AppShare/notesShare?id=a'),
      ),
    ).toBe(true);
  });

  it('leaves submissions to the default', () => {
    expect(shareShouldRevalidate(args(`${page}?id=a`, `${page}?id=a`, 'POST'))).toBe(true);
  });
});
