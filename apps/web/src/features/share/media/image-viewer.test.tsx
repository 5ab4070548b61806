import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { goodsFixture } from '../../../test-support/share-fixtures';
import { stubLayoutApis } from '../../../test-support/share-route';
import { LanguageProvider } from '../../../lib/i18n/language-context';
import { ImageViewer } from './image-viewer';

beforeEach(stubLayoutApis);
afterEach(cleanup);

function renderViewer(startIndex = 0) {
  const onClose = vi.fn();
  const onIndexChange = vi.fn();
  const opener = document.createElement('button');
  document.body.append(opener);
  opener.focus();
  const view = render(
    <ImageViewer
      images={goodsFixture.images}
      name={goodsFixture.name}
      startIndex={startIndex}
      onIndexChange={onIndexChange}
      onClose={onClose}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: '大图查看' });
  const track = dialog.querySelector('div') as HTMLElement;
  Object.defineProperty(track, 'clientWidth', { value: 400, configurable: true });
  Object.defineProperty(track, 'clientHeight', { value: 800, configurable: true });
  return { ...view, onClose, onIndexChange, dialog, track, opener };
}

const pointer = (x: number, y: number, id = 1, timeStamp?: number) => ({
  pointerId: id,
  clientX: x,
  clientY: y,
  ...(timeStamp === undefined ? {} : { timeStamp }),
});

describe('ImageViewer', () => {
  it('is a modal dialog that takes the focus and gives it back', () => {
    const { dialog, opener, unmount } = renderViewer(1);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '关闭大图' }));
    expect(dialog.textContent).toContain('2 / 3');
    unmount();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  it('closes on Escape and with its button', () => {
    const { onClose } = renderViewer();
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: '关闭大图' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('zooms in on a double tap and out on the next', () => {
    const { track } = renderViewer();
    const image = screen.getByRole('img', { name: goodsFixture.images[0]?.alt });
    const tap = () => {
      fireEvent.pointerDown(track, pointer(250, 400));
      fireEvent.pointerUp(track, pointer(250, 400));
    };
    tap();
    tap();
    expect(image.style.transform).toContain('scale(2.5)');
    tap();
    tap();
    expect(image.style.transform).toContain('scale(1)');
  });

  it('zooms with two fingers', () => {
    const { track } = renderViewer();
    const image = screen.getByRole('img', { name: goodsFixture.images[0]?.alt });
    fireEvent.pointerDown(track, pointer(150, 400, 1));
    fireEvent.pointerDown(track, pointer(250, 400, 2));
    fireEvent.pointerMove(track, pointer(100, 400, 1));
    fireEvent.pointerMove(track, pointer(300, 400, 2));
    expect(image.style.transform).toContain('scale(2)');
    fireEvent.pointerUp(track, pointer(100, 400, 1));
    fireEvent.pointerUp(track, pointer(300, 400, 2));
  });

  it('closes on a swipe down, and springs back on a short one', () => {
    const { track, onClose } = renderViewer();
    fireEvent.pointerDown(track, pointer(200, 300));
    fireEvent.pointerMove(track, pointer(200, 340));
    fireEvent.pointerUp(track, pointer(200, 340));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.pointerDown(track, pointer(200, 300));
    fireEvent.pointerMove(track, pointer(205, 360));
    fireEvent.pointerMove(track, pointer(205, 500));
    fireEvent.pointerUp(track, pointer(205, 500));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('pages with the arrow buttons and keys', () => {
    const { track } = renderViewer();
    const scrollTo = vi.fn();
    track.scrollTo = scrollTo;
    expect(screen.getByRole<HTMLButtonElement>('button', { name: '上一张' }).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '下一张' }));
    expect(scrollTo).toHaveBeenCalledWith({ left: 400, behavior: 'smooth' });
    fireEvent.keyDown(document, { key: 'ArrowRight' });
    expect(scrollTo).toHaveBeenCalledTimes(2);
  });

  it('speaks the page’s language', () => {
    render(
      <LanguageProvider language="en">
        <ImageViewer
          images={goodsFixture.images}
          name={goodsFixture.name}
          startIndex={0}
          onIndexChange={vi.fn()}
          onClose={vi.fn()}
        />
      </LanguageProvider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Photo viewer' });
    expect(screen.getByRole('button', { name: 'Close photo viewer' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Next photo' })).toBeDefined();
    expect(dialog.textContent).not.toContain('大图');
  });
});
