import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBridge, type Bridge } from '../../lib/bridge/native-bridge';
import {
  createFakeDemoServer,
  DEMO_USERS,
  type FakeDemoServer,
} from '../../test-support/fake-demo-server';
import { DEMO_PATHS } from './demo-api';
import { installSimulator } from './install-simulator';
import { SESSION_KEY } from './simulator-state';

/**
 * The simulator as a demo page installs it, in one window for the whole file (as a page
 * installs it once): the page's bridge talks to it through the real globals, the panel renders
 * in its own root.
 */
let server: FakeDemoServer;
let bridge: Bridge;

beforeAll(async () => {
  server = createFakeDemoServer();
  window.fetch = server.fetch;
  bridge = createBridge(window);
  await act(async () => {
    installSimulator(window);
    await Promise.resolve();
  });
});

function toggle(): HTMLElement {
  return screen.getByRole('button', { name: /app simulator/i });
}

async function openPanel(): Promise<HTMLElement> {
  if (toggle().getAttribute('aria-expanded') !== 'true') {
    await act(async () => {
      fireEvent.click(toggle());
      await Promise.resolve();
    });
  }
  return screen.getByRole('complementary', { name: 'App simulator' });
}

// Role queries over the whole panel are slow in jsdom: more time than the default 5 s.
describe('installSimulator', () => {
  it('plays the iOS app through the real message path', async () => {
    expect(bridge.transport()).toBe('ios');
    await expect(bridge.call('handshake', {})).resolves.toEqual({
      bridgeVersion: 1,
      platform: 'ios',
      appVersion: 'simulator',
    });
  });

  it('installs once: a second call returns the same simulator and adds no second panel', () => {
    const again = installSimulator(window);
    expect(again).toBe(installSimulator(window));
    expect(document.querySelectorAll('[data-bridge-simulator]')).toHaveLength(1);
  });

  it('has a labelled toggle that shows and hides the panel', async () => {
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    const panel = await openPanel();
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    const controlled = document.getElementById(toggle().getAttribute('aria-controls') ?? '');
    expect(controlled?.hidden).toBe(false);
    expect(within(panel).getByRole('combobox', { name: 'Demo user' })).toBeTruthy();
    expect(within(panel).getByRole('spinbutton', { name: 'Reply delay (ms)' })).toBeTruthy();
    expect(within(panel).getByRole('group', { name: 'What the next purchase does' })).toBeTruthy();
    expect(
      within(panel)
        .getByRole('button', { name: 'Platform (stand-in)' })
        .getAttribute('aria-expanded'),
    ).toBe('false');
    await act(async () => {
      fireEvent.keyDown(controlled ?? document.body, { key: 'Escape' });
      await Promise.resolve();
    });
    expect(controlled?.hidden).toBe(true);
  });

  it('closes on Escape wherever the focus is, but for the page’s own dialog (issue 39)', async () => {
    await openPanel();
    const controlled = document.getElementById(toggle().getAttribute('aria-controls') ?? '');
    // A dialog of the page's own takes its Escape: the panel stays.
    const root = document.createElement('div');
    root.id = 'root';
    root.innerHTML =
      '<div role="dialog"><button>in a sheet</button></div><p tabindex="-1">page</p>';
    document.body.append(root);
    try {
      await act(async () => {
        fireEvent.keyDown(root.querySelector('button') ?? document.body, { key: 'Escape' });
        await Promise.resolve();
      });
      expect(controlled?.hidden).toBe(false);
      // The focus on the page, not in the panel: Escape closes it.
      await act(async () => {
        fireEvent.keyDown(root.querySelector('p') ?? document.body, { key: 'Escape' });
        await Promise.resolve();
      });
      expect(controlled?.hidden).toBe(true);
    } finally {
      root.remove();
    }
  });

  it('logs in the demo user picked in the panel, and keeps the session in sessionStorage', async () => {
    const panel = await openPanel();
    const select = within(panel).getByRole<HTMLSelectElement>('combobox', { name: 'Demo user' });
    await waitFor(() => {
      expect(within(select).getByRole('option', { name: DEMO_USERS[1].nickname })).toBeTruthy();
    });
    await act(async () => {
      fireEvent.change(select, { target: { value: DEMO_USERS[1].id } });
      await Promise.resolve();
    });
    await waitFor(async () => {
      await expect(bridge.call('getSession', {})).resolves.toMatchObject({
        userId: DEMO_USERS[1].id,
      });
    });
    expect(sessionStorage.getItem(SESSION_KEY)).toContain(DEMO_USERS[1].id);

    await act(async () => {
      fireEvent.change(select, { target: { value: '' } });
      await Promise.resolve();
    });
    await expect(bridge.call('getSession', {})).resolves.toBeNull();
    expect(sessionStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('picking a user while the page waits for no log-in resumes the page (it reads its session again)', async () => {
    const panel = await openPanel();
    const select = within(panel).getByRole<HTMLSelectElement>('combobox', { name: 'Demo user' });
    const resumed = new Promise((resolve) => bridge.on('resumed', resolve));
    await act(async () => {
      fireEvent.change(select, { target: { value: DEMO_USERS[0].id } });
      await Promise.resolve();
    });
    await expect(resumed).resolves.toEqual({});
    const loggedOut = new Promise((resolve) => bridge.on('resumed', resolve));
    await act(async () => {
      fireEvent.change(select, { target: { value: '' } });
      await Promise.resolve();
    });
    await expect(loggedOut).resolves.toEqual({});
  });

  it('shows the demo SMS code sent to the logged-in user, read with their token, and refreshes it', async () => {
    const panel = await openPanel();
    const section = within(panel).getByRole('region', { name: 'Demo SMS code' });
    expect(section.textContent).toContain('Pick a demo user');
    const select = within(panel).getByRole<HTMLSelectElement>('combobox', { name: 'Demo user' });
    await act(async () => {
      fireEvent.change(select, { target: { value: DEMO_USERS[1].id } });
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(section.textContent).toContain('No code has been sent to this user yet');
    });
    const asked = server.requests.filter((request) => request.url.endsWith('/demo/sms/latest'));
    expect(asked.at(-1)?.authorization).toMatch(/^Bearer eyJ/);

    server.sendSms(DEMO_USERS[1].id, '204816');
    await act(async () => {
      fireEvent.click(within(section).getByRole('button', { name: 'Refresh SMS code' }));
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(section.querySelector('[data-sms-code]')?.textContent).toBe('204816');
    });
    expect(section.textContent).toContain('Sent to 138****0001 at');

    server.failPath(DEMO_PATHS.latestSms, 500);
    await act(async () => {
      fireEvent.click(within(section).getByRole('button', { name: 'Refresh SMS code' }));
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(within(section).getByRole('alert').textContent).toContain('Simulated outage.');
    });
    server.healPath(DEMO_PATHS.latestSms);
    // Logged out, the section reads nothing and asks for a user again.
    await act(async () => {
      fireEvent.change(select, { target: { value: '' } });
      await Promise.resolve();
    });
    expect(within(section).queryByRole('alert')).toBeNull();
    expect(section.textContent).toContain('Pick a demo user');
  });

  it('asks the tester to pick a user when the page calls login', async () => {
    const login = bridge.call('login', {});
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('asks you to log in');
    const select = screen.getByRole('combobox', { name: 'Demo user' });
    await act(async () => {
      fireEvent.change(select, { target: { value: DEMO_USERS[0].id } });
      await Promise.resolve();
    });
    await expect(login).resolves.toMatchObject({ userId: DEMO_USERS[0].id });
    await waitFor(() => {
      expect(screen.queryByRole('alert')).toBeNull();
    });
  });

  it('changes what purchases do and the platform from the panel', async () => {
    const panel = await openPanel();
    await act(async () => {
      fireEvent.click(within(panel).getByRole('radio', { name: /^Cancel/ }));
      fireEvent.click(within(panel).getByRole('radio', { name: 'Android' }));
      await Promise.resolve();
    });
    await expect(
      bridge.call('storeKitPurchase', {
        productId: 'vip.yearly',
        appAccountToken: '6f1c2b8e-6a0f-4d3e-9b1a-2c3d4e5f6a7b',
      }),
    ).resolves.toEqual({ state: 'cancelled' });
    await expect(bridge.call('handshake', {})).resolves.toMatchObject({ platform: 'android' });
  });

  it('shows what the app would do on screen, and sends resumed on coming back', async () => {
    const resumed = new Promise((resolve) => bridge.on('resumed', resolve));
    await act(async () => {
      await bridge.call('openAppRoute', { route: 'membership' });
    });
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('“membership”');
    await act(async () => {
      fireEvent.click(within(status).getByRole('button', { name: 'Back to the page' }));
      await Promise.resolve();
    });
    await expect(resumed).resolves.toEqual({});
    expect(status.textContent).toBe('');
  });
});
