import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppPromptProvider } from './app-prompt';
import { APP_BAR_DISMISSED_KEY, resetAppBarForTests } from './dismissed-store';
import { OpenAppBar } from './open-app-bar';

function Bar() {
  return (
    <AppPromptProvider kind="goods">
      <OpenAppBar />
    </AppPromptProvider>
  );
}

function renderBar() {
  const router = createMemoryRouter([{ path: '/', element: <Bar /> }]);
  return render(<RouterProvider router={router} />);
}

beforeEach(resetAppBarForTests);
afterEach(cleanup);

describe('OpenAppBar', () => {
  it('offers to open the app and can be closed for the session', () => {
    renderBar();
    expect(screen.getByRole('complementary', { name: '谷圈' }).textContent).toContain(
      '打开谷圈 App，看更多同好的谷子',
    );
    expect(screen.getByRole('link', { name: '打开' })).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: '关闭提示' }));
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(sessionStorage.getItem(APP_BAR_DISMISSED_KEY)).toBe('1');
    cleanup();
    renderBar();
    expect(screen.queryByRole('complementary')).toBeNull();
  });

  it('is in the server’s HTML even when closed before, so hydration matches', () => {
    sessionStorage.setItem(APP_BAR_DISMISSED_KEY, '1');
    const router = createMemoryRouter([{ path: '/', element: <Bar /> }]);
    const html = renderToString(<RouterProvider router={router} />);
    expect(html).toContain('打开谷圈 App，看更多同好的谷子');
  });
});
