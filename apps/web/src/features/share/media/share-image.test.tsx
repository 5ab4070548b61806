import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startDeferredImages } from '../../../lib/dom/deferred-images';
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

  it('holds the place as an empty box with its name and addresses, then puts the image in it when near', async () => {
    if (!third) throw new Error('fixture');
    render(<ShareImage image={third} slot={TILE_SLOT} defer="near" fallbackAlt="第 3 张" />);
    const box = screen.getByRole('img', { name: '第 3 张' });
    expect(box.tagName).toBe('SPAN');
    expect(box.childNodes).toHaveLength(0);
    expect(document.querySelector('img')).toBeNull();
    expect(box.dataset.srcset).toBe(slotSrcSet(third, TILE_SLOT));
    expect(box.dataset.sizes).toBe(TILE_SLOT.sizes);
    expect(box.dataset.src).toBe(`/anime_merch_web/media/${third.id}/750.webp`);
    expect(box.dataset.defer).toBe('near');
    await waitFor(() => {
      expect(observed.has(box)).toBe(true);
    });

    report([{ isIntersecting: false, target: box }]);
    expect(document.querySelector('img')).toBeNull();
    report([{ isIntersecting: true, target: box }]);
    // One image for a screen reader: the box, its name; the <img> in it is alt="".
    expect(screen.getAllByRole('img')).toEqual([box]);
    const img = box.querySelector('img');
    if (!img) throw new Error('no image');
    expect(box.children).toHaveLength(1);
    expect(img.getAttribute('alt')).toBe('');
    expect(img.getAttribute('srcset')).toBe(slotSrcSet(third, TILE_SLOT));
    expect(img.getAttribute('sizes')).toBe(TILE_SLOT.sizes);
    expect(img.getAttribute('src')).toBe(`/anime_merch_web/media/${third.id}/750.webp`);
    expect(observed.size).toBe(0);
  });

  it('keeps the image it put in the box when React renders the box again', async () => {
    if (!third) throw new Error('fixture');
    const { rerender } = render(
      <ShareImage image={third} slot={TILE_SLOT} defer="settled" fallbackAlt="第 3 张" />,
    );
    const box = screen.getByRole('img', { name: '第 3 张' });
    await waitFor(() => {
      expect(box.querySelector('img')).not.toBeNull();
    });
    const img = box.querySelector('img');
    rerender(
      <ShareImage
        image={third}
        slot={TILE_SLOT}
        defer="settled"
        fallbackAlt="第 3 张"
        className="again"
      />,
    );
    expect(box.className).toMatch(/^again /);
    expect(box.querySelector('img')).toBe(img);
  });

  it('is a decorative box, hidden from screen readers, when the image has no name', () => {
    render(
      <ShareImage
        image={{ id: 'plainAAAAAAAAAA1', width: 300, height: 300, alt: '' }}
        slot={TILE_SLOT}
        defer="near"
        fallbackAlt=""
      />,
    );
    expect(screen.queryByRole('img')).toBeNull();
    expect(document.querySelector('[data-defer]')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('stops watching an image that leaves the page before its moment', async () => {
    if (!third) throw new Error('fixture');
    const { unmount } = render(
      <ShareImage image={third} slot={TILE_SLOT} defer="near" fallbackAlt="第 3 张" />,
    );
    const box = screen.getByRole('img', { name: '第 3 张' });
    await waitFor(() => {
      expect(observed.has(box)).toBe(true);
    });
    unmount();
    expect(observed.size).toBe(0);
  });

  it('loads a gallery’s other image once the page has settled, wherever it is', async () => {
    if (!second) throw new Error('fixture');
    render(<ShareImage image={second} slot={HERO_SLOT} defer="settled" fallbackAlt="第 2 张" />);
    const box = screen.getByRole('img', { name: second.alt || '第 2 张' });
    expect(box.querySelector('img')).toBeNull();
    await waitFor(() => {
      expect(box.querySelector('img')?.getAttribute('srcset')).toBe(slotSrcSet(second, HERO_SLOT));
    });
    expect(observed.size).toBe(0);
  });

  it('renders the same box on the server and the client: no <img> and no address for React to own', () => {
    if (!third) throw new Error('fixture');
    const html = renderToString(
      <ShareImage image={third} slot={TILE_SLOT} defer="near" fallbackAlt="第 3 张" />,
    );
    const [deferred = ''] = html.split('<noscript>');
    expect(deferred).toMatch(
      /^<span [^>]*role="img" aria-label="第 3 张"[^>]*data-defer="near"[^>]*><\/span>$/,
    );
    expect(deferred).not.toMatch(/ (src|srcSet|srcset|sizes)=/);
    expect(deferred).toContain(`data-srcset="${slotSrcSet(third, TILE_SLOT)}"`);
  });

  it('hydrates without a mismatch, even when a script has put the image in first', async () => {
    if (!third) throw new Error('fixture');
    const element = (
      <ShareImage image={third} slot={TILE_SLOT} defer="settled" fallbackAlt="第 3 张" />
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(element);
    document.body.append(container);
    const box = container.querySelector<HTMLElement>('[data-defer]');
    if (!box) throw new Error('no box');
    startDeferredImages(container);
    await waitFor(() => {
      expect(box.querySelector('img')).not.toBeNull();
    });
    const img = box.querySelector('img');
    const onRecoverableError = vi.fn();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const root = await act(() => hydrateRoot(container, element, { onRecoverableError }));
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(container.querySelector('[data-defer]')).toBe(box);
    expect(container.querySelectorAll('img')).toHaveLength(1);
    expect(box.querySelector('img')).toBe(img);
    expect(img?.getAttribute('srcset')).toBe(slotSrcSet(third, TILE_SLOT));
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    act(() => {
      root.unmount();
    });
    container.remove();
  });
});

describe('ShareImage deferred, without scripts', () => {
  it('gives pages without scripts the image inside <noscript>', () => {
    if (!third) throw new Error('fixture');
    const html = renderToString(
      <ShareImage image={third} slot={TILE_SLOT} defer="near" fallbackAlt="第 3 张" />,
    );
    const noscript = html.slice(html.indexOf('<noscript>'));
    expect(noscript).toMatch(/^<noscript><img [^>]*alt="第 3 张"/);
    expect(noscript).toContain(`srcSet="${slotSrcSet(third, TILE_SLOT)}"`);
    expect(noscript).not.toContain('data-defer');
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
