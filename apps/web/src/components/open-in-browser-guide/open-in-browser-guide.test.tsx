import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenInBrowserGuide, type OpenInBrowserGuideTexts } from './open-in-browser-guide';

const texts: OpenInBrowserGuideTexts = {
  title: '请在浏览器中打开',
  steps: ['点击右上角的 ··· 按钮', '选择「在浏览器打开」'],
  hint: '微信内无法直接下载安装 App',
  copyIntro: '也可以复制本页链接',
  linkLabel: '本页链接',
  copy: '复制链接',
  copied: '链接已复制',
  copyFailed: '无法自动复制',
  close: '我知道了',
};

/** A page with a button that opens the guide, as the website and the share pages use it. */
function Harness({ url }: { url?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setOpen(true);
        }}
      >
        下载
      </button>
      <OpenInBrowserGuide
        open={open}
        onClose={() => {
          setOpen(false);
        }}
        texts={texts}
        url={url}
      />
    </>
  );
}

function openGuide(url?: string): HTMLElement {
  render(<Harness url={url} />);
  const opener = screen.getByRole('button', { name: '下载' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

function setClipboard(writeText: ((text: string) => Promise<void>) | undefined): void {
  if (writeText) {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  } else {
    Reflect.deleteProperty(navigator, 'clipboard');
  }
}

function setExecCommand(result: boolean): ReturnType<typeof vi.fn> {
  const execCommand = vi.fn(() => result);
  Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
  return execCommand;
}

beforeEach(() => {
  setClipboard(undefined);
});

afterEach(() => {
  cleanup();
  setClipboard(undefined);
  Reflect.deleteProperty(document, 'execCommand');
});

describe('OpenInBrowserGuide', () => {
  it('renders nothing while closed', () => {
    render(<Harness />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is a labelled modal dialog with the steps, and takes the focus', () => {
    openGuide();
    const dialog = screen.getByRole('dialog', { name: texts.title });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('点击右上角的 ··· 按钮');
    expect(dialog.textContent).toContain('选择「在浏览器打开」');
    expect(dialog.textContent).toContain(texts.hint);
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on Escape and on its button, giving the focus back', () => {
    const opener = openGuide();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    fireEvent.click(opener);
    fireEvent.click(screen.getByRole('button', { name: texts.close }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps Tab inside the dialog', () => {
    openGuide();
    const dialog = screen.getByRole('dialog');
    const link = screen.getByLabelText(texts.linkLabel);
    const close = screen.getByRole('button', { name: texts.close });
    close.focus();
    fireEvent.keyDown(close, { key: 'Tab' });
    expect(document.activeElement).toBe(link);
    fireEvent.keyDown(link, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(close);
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('shows the page address and copies it with the Clipboard API', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    setClipboard(writeText);
    openGuide();
    expect(screen.getByLabelText<HTMLInputElement>(texts.linkLabel).value).toBe(
      window.location.href,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: texts.copy }));
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith(window.location.href);
    expect(screen.getByRole('status').textContent).toBe(texts.copied);
  });

  it('copies a given link instead of the page address', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    setClipboard(writeText);
    openGuide('https://www.guquan.example/s/abc');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: texts.copy }));
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith('https://www.guquan.example/s/abc');
  });

  it('falls back to selecting the link and execCommand without the Clipboard API', async () => {
    const execCommand = setExecCommand(true);
    openGuide();
    const input = screen.getByLabelText<HTMLInputElement>(texts.linkLabel);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: texts.copy }));
      await Promise.resolve();
    });
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(document.activeElement).toBe(input);
    expect(input.selectionStart).toBe(0);
    expect(input.selectionEnd).toBe(input.value.length);
    expect(screen.getByRole('status').textContent).toBe(texts.copied);
  });

  it('falls back when the Clipboard API refuses, and says so when nothing works', async () => {
    setClipboard(() => Promise.reject(new Error('NotAllowedError')));
    const execCommand = setExecCommand(false);
    openGuide();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: texts.copy }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(screen.getByRole('status').textContent).toBe(texts.copyFailed);
  });
});
