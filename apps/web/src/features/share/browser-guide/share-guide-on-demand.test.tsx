import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '@guquan/contract/language';
import { LanguageProvider } from '../../../lib/i18n/language-context';
import { shareGuideTexts } from '../texts/all-share-guide-texts';
import { ShareOpenInBrowserGuide } from './share-guide-on-demand';

afterEach(cleanup);

function renderGuide(language: Language, open = true) {
  const onClose = vi.fn();
  const view = render(
    <LanguageProvider language={language}>
      <ShareOpenInBrowserGuide open={open} onClose={onClose} inAppBrowser="weibo" />
    </LanguageProvider>,
  );
  return { ...view, onClose };
}

describe('ShareOpenInBrowserGuide', () => {
  it('loads with its texts in the page’s language, the in-app browser named in the hint', async () => {
    const { onClose } = renderGuide('en');
    const dialog = await screen.findByRole('dialog', { name: 'Open this page in your browser' });
    expect(dialog.textContent).toContain('cannot be opened from inside Weibo.');
    expect(dialog.textContent).not.toContain('{app}');
    fireEvent.click(screen.getByRole('button', { name: shareGuideTexts('en').guide.close }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('in Chinese, with the Chinese names', async () => {
    renderGuide('zh-CN');
    const dialog = await screen.findByRole('dialog', {
      name: shareGuideTexts('zh-CN').guide.title,
    });
    expect(dialog.textContent).toContain('微博内无法直接打开谷圈 App');
    expect(screen.getByRole('button', { name: '复制链接' })).toBeDefined();
  });

  it('draws nothing while closed', () => {
    const { container } = renderGuide('zh-CN', false);
    expect(container.innerHTML).toBe('');
  });
});
