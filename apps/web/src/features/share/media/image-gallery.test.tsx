import { act, cleanup } from '@testing-library/react';
import { useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { ImageGallery } from './image-gallery';

afterEach(cleanup);

const TRACK_WIDTH = 400;

/** The gallery as a page holds it: the index is the page's, the counter shows it. */
function Gallery({ onIndexChange }: { onIndexChange: (index: number) => void }) {
  const [index, setIndex] = useState(0);
  return (
    <ImageGallery
      images={goodsFixture.images}
      name={goodsFixture.name}
      index={index}
      onIndexChange={(next) => {
        onIndexChange(next);
        setIndex(next);
      }}
      onOpen={() => undefined}
    />
  );
}

/** The server's gallery, its track scrolled to `scrolledTo` before the app is here. */
function serverGallery(scrolledTo: number, onIndexChange: (index: number) => void) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Gallery onIndexChange={onIndexChange} />);
  document.body.append(container);
  const track = container.querySelector('section > div');
  if (!(track instanceof HTMLElement)) throw new Error('no track');
  Object.defineProperty(track, 'clientWidth', { value: TRACK_WIDTH, configurable: true });
  track.scrollLeft = scrolledTo * TRACK_WIDTH;
  const scrollTo = vi.fn();
  track.scrollTo = scrollTo;
  return { container, track, scrollTo };
}

describe('ImageGallery', () => {
  it('on hydration, shows the image a swipe before the app reached, and stays there', async () => {
    const onIndexChange = vi.fn();
    const { container, scrollTo } = serverGallery(2, onIndexChange);
    const total = goodsFixture.images.length;
    expect(container.textContent).toContain(`1/${total}`);
    const root = await act(() => hydrateRoot(container, <Gallery onIndexChange={onIndexChange} />));
    expect(onIndexChange).toHaveBeenCalledExactlyOnceWith(2);
    expect(container.textContent).toContain(`3/${total}`);
    expect(scrollTo, 'not scrolled back to the first image').not.toHaveBeenCalled();
    act(() => {
      root.unmount();
    });
    container.remove();
  });

  it('on hydration at the first image, reports nothing', async () => {
    const onIndexChange = vi.fn();
    const { container, scrollTo } = serverGallery(0, onIndexChange);
    const root = await act(() => hydrateRoot(container, <Gallery onIndexChange={onIndexChange} />));
    expect(onIndexChange).not.toHaveBeenCalled();
    expect(scrollTo).not.toHaveBeenCalled();
    act(() => {
      root.unmount();
    });
    container.remove();
  });
});
