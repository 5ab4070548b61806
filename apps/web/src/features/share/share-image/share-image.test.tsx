import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { imageSrcSet } from '@guquan/contract/share-paths';
import { goodsFixture } from '../fixtures';
import { ShareImage } from './share-image';

afterEach(cleanup);

const [first, second, third] = goodsFixture.images;

describe('ShareImage', () => {
  it('reserves its size and offers the contract’s srcset', () => {
    if (!first) throw new Error('fixture');
    render(<ShareImage image={first} sizes="100vw" priority fallbackAlt="x" />);
    const img = screen.getByRole<HTMLImageElement>('img', { name: first.alt });
    expect(img.getAttribute('width')).toBe('1080');
    expect(img.getAttribute('height')).toBe('1080');
    expect(img.getAttribute('srcset')).toBe(imageSrcSet(first));
    expect(img.getAttribute('sizes')).toBe('100vw');
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('fetchpriority')).toBe('high');
    expect(img.getAttribute('decoding')).toBe('async');
    expect(img.getAttribute('src')).toBe(`/anime_merch_web/media/${first.id}/750.webp`);
  });

  it('is lazy unless first, and falls back to a given alt text', () => {
    if (!second || !third) throw new Error('fixture');
    render(<ShareImage image={third} sizes="100vw" fallbackAlt="第 3 张" />);
    const img = screen.getByRole('img', { name: '第 3 张' });
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.hasAttribute('fetchpriority')).toBe(false);
  });

  it('asks for no more than the original’s width when it is small', () => {
    render(
      <ShareImage
        image={{ id: 'smallAAAAAAAAAA1', width: 300, height: 200, alt: '' }}
        sizes="40px"
        fallbackAlt=""
      />,
    );
    expect(document.querySelector('img')?.getAttribute('src')).toBe(
      '/anime_merch_web/media/smallAAAAAAAAAA1/320.webp',
    );
  });
});
