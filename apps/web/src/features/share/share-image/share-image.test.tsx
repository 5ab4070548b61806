import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { goodsFixture } from '../fixtures';
import { AVATAR_SLOT, FULL_SCREEN_SLOT, HERO_SLOT, slotSrcSet } from './image-slots';
import { ShareImage } from './share-image';

afterEach(cleanup);

const [first, second, third] = goodsFixture.images;

describe('ShareImage', () => {
  it('reserves its size and offers the widths its slot needs', () => {
    if (!first) throw new Error('fixture');
    render(<ShareImage image={first} slot={HERO_SLOT} priority fallbackAlt="x" />);
    const img = screen.getByRole<HTMLImageElement>('img', { name: first.alt });
    expect(img.getAttribute('width')).toBe('1080');
    expect(img.getAttribute('height')).toBe('1080');
    expect(img.getAttribute('srcset')).toBe(slotSrcSet(first, HERO_SLOT));
    expect(img.getAttribute('sizes')).toBe(HERO_SLOT.sizes);
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('fetchpriority')).toBe('high');
    expect(img.getAttribute('decoding')).toBe('async');
    expect(img.getAttribute('src')).toBe(`/anime_merch_web/media/${first.id}/750.webp`);
  });

  it('is lazy unless first, and falls back to a given alt text', () => {
    if (!second || !third) throw new Error('fixture');
    render(<ShareImage image={third} slot={FULL_SCREEN_SLOT} fallbackAlt="第 3 张" />);
    const img = screen.getByRole('img', { name: '第 3 张' });
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.hasAttribute('fetchpriority')).toBe(false);
  });

  it('asks for no more than the original’s width when it is small', () => {
    render(
      <ShareImage
        image={{ id: 'smallAAAAAAAAAA1', width: 300, height: 200, alt: '' }}
        slot={AVATAR_SLOT}
        fallbackAlt=""
      />,
    );
    expect(document.querySelector('img')?.getAttribute('src')).toBe(
      '/anime_merch_web/media/smallAAAAAAAAAA1/320.webp',
    );
  });
});
