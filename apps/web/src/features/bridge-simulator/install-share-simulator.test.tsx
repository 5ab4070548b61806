import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installShareSimulator } from './install-share-simulator';

/** The share pages' simulator panel, as a demo share page installs it once it has loaded. */
describe('installShareSimulator', () => {
  it('shows a panel with the first launch after install alone, and installs no bridge', async () => {
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { readText: () => Promise.resolve('hello'), writeText: () => Promise.resolve() },
    });
    await act(async () => {
      installShareSimulator(window);
      installShareSimulator(window);
      await Promise.resolve();
    });
    expect(document.querySelectorAll('[data-bridge-simulator]')).toHaveLength(1);
    expect(document.querySelector('[data-bridge-simulator="share"]')).not.toBeNull();
    // A share page is not in the app: nothing answers for it.
    expect((window as { webkit?: unknown }).webkit).toBeUndefined();

    const toggle = screen.getByRole('button', { name: 'App simulator' });
    await act(async () => {
      fireEvent.click(toggle);
      await Promise.resolve();
    });
    const panel = screen.getByRole('complementary', { name: 'App simulator' });
    expect(within(panel).queryByRole('combobox', { name: 'Demo user' })).toBeNull();
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'First launch after install' }));
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(within(panel).getByRole('status').textContent).toContain(
        'no share text on the clipboard',
      );
    });
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'OK' }));
      await Promise.resolve();
    });
    expect(within(panel).getByRole('status').textContent).toBe('');
  });
});
