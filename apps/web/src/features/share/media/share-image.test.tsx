import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { AVATAR_SLOT, FULL_SCREEN_SLOT, HERO_SLOT, TILE_SLOT, slotSrcSet } from './image-slots';
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

describe('ShareImage deferred until near the screen', () => {
  type Callback = (entries: Pick<IntersectionObserverEntry, 'isIntersecting' | 'target'>[]) => void;
  let report: Callback = () => undefined;
  const observed = new Set<Element>();

  beforeEach(() => {
    observed.clear();
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: Callback) {
          report = callback;
        }
        observe(element: Element) {
          observed.add(element);
        }
        unobserve(element: Element) {
          observed.delete(element);
        }
      },
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('holds the place with the same name and no request, then becomes the image when near', async () => {
    if (!third) throw new Error('fixture');
    render(<ShareImage image={third} slot={TILE_SLOT} defer="near" fallbackAlt="第 3 张" />);
    const pending = screen.getByRole('img', { name: '第 3 张' });
    expect(pending.tagName).toBe('SPAN');
    expect(document.querySelector('img')).toBeNull();
    await waitFor(() => {
      expect(observed.has(pending)).toBe(true);
    });

    report([{ isIntersecting: false, target: pending }]);
    expect(screen.getByRole('img', { name: '第 3 张' }).tagName).toBe('SPAN');
    act(() => {
      report([{ isIntersecting: true, target: pending }]);
    });
    const img = screen.getByRole('img', { name: '第 3 张' });
    expect(img.tagName).toBe('IMG');
    expect(img.getAttribute('srcset')).toBe(slotSrcSet(third, TILE_SLOT));
    expect(observed.size).toBe(0);
  });

  it('loads a gallery’s other image once the page has settled, wherever it is', async () => {
    if (!second) throw new Error('fixture');
    render(<ShareImage image={second} slot={HERO_SLOT} defer="settled" fallbackAlt="第 2 张" />);
    expect(screen.getByRole('img', { name: second.alt || '第 2 张' }).tagName).toBe('SPAN');
    await waitFor(() => {
      expect(screen.getByRole('img', { name: second.alt || '第 2 张' }).tagName).toBe('IMG');
    });
    expect(observed.size).toBe(0);
  });

  it('gives pages without scripts the image inside <noscript>', () => {
    if (!third) throw new Error('fixture');
    const html = renderToString(
      <ShareImage image={third} slot={TILE_SLOT} defer="near" fallbackAlt="第 3 张" />,
    );
    expect(html).toMatch(/^<span [^>]*role="img" aria-label="第 3 张"><\/span><noscript><img /);
    expect(html).toContain(`srcSet="${slotSrcSet(third, TILE_SLOT)}"`);
  });
});

describe('ShareImage deferred, in a browser without IntersectionObserver', () => {
  it('becomes the image once the page has settled', async () => {
    if (!third) throw new Error('fixture');
    expect(typeof IntersectionObserver).toBe('undefined');
    render(<ShareImage image={third} slot={TILE_SLOT} defer="near" fallbackAlt="第 3 张" />);
    await waitFor(() => {
      expect(screen.getByRole('img', { name: '第 3 张' }).tagName).toBe('IMG');
    });
  });
});

describe('ShareImage of an image not here yet', () => {
  it('shows the placeholder at the image’s shape, with its name, and asks for nothing', () => {
    if (!first) throw new Error('fixture');
    const waiting = { ...first, missing: true as const };
    render(<ShareImage image={waiting} slot={HERO_SLOT} priority fallbackAlt="x" className="c" />);
    const placeholder = screen.getByRole('img', { name: first.alt });
    expect(placeholder.tagName.toLowerCase()).toBe('svg');
    expect(placeholder.getAttribute('viewBox')).toBe(`0 0 ${first.width} ${first.height}`);
    expect(placeholder.getAttribute('width')).toBe(String(first.width));
    expect(placeholder.getAttribute('class')).toMatch(/^c /);
    expect(document.querySelector('img')).toBeNull();
  });

  it('stays the placeholder when deferred and without scripts: no image address in the page', () => {
    if (!third) throw new Error('fixture');
    const html = renderToString(
      <ShareImage
        image={{ ...third, missing: true }}
        slot={TILE_SLOT}
        defer="near"
        fallbackAlt="第 3 张"
      />,
    );
    expect(html).toMatch(/^<svg [^>]*role="img" aria-label="第 3 张"[^>]*><\/svg>$/);
    expect(html).not.toContain('/media/');
    expect(html).not.toContain('<noscript>');
  });
});
