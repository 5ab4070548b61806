/**
 * The in-app pages' demo: a user logged in through the demo server's sessions, and the bridge
 * simulator playing the app that opens the page with that user (and these settings).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { DemoUserKey } from '../../apps/server/src/demo/seed/demo-ids.ts';
import {
  DEFAULT_SETTINGS,
  SESSION_KEY,
  SETTINGS_KEY,
  type SimulatorSettings,
} from '../../apps/web/src/features/bridge-simulator/simulator-state.ts';
import { BASE_PATH, DEMO_IDS, expect } from './fixtures.ts';

export const API = `${BASE_PATH}/api/v1`;

export interface DemoSession {
  token: string;
  userId: string;
  expiresAt: string;
}

/** Logs a demo user in, as the platform would for the app: a session with its token. */
export async function logIn(request: APIRequestContext, user: DemoUserKey): Promise<DemoSession> {
  const response = await request.post(`${API}/demo/sessions`, {
    data: { userId: DEMO_IDS.users[user] },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as DemoSession;
}

/**
 * Starts the simulator as an app that already has a logged-in user (or none) and these
 * settings: what the app would have when it opens the page.
 */
export async function playTheApp(
  page: Page,
  session: DemoSession | null,
  settings: Partial<SimulatorSettings> = {},
): Promise<void> {
  await page.addInitScript(
    ([sessionKey, settingsKey, values]) => {
      if (sessionStorage.getItem('e2e.seeded')) return;
      sessionStorage.setItem('e2e.seeded', '1');
      if (values.session) sessionStorage.setItem(sessionKey, JSON.stringify(values.session));
      sessionStorage.setItem(settingsKey, JSON.stringify(values.settings));
    },
    [
      SESSION_KEY,
      SETTINGS_KEY,
      { session, settings: { ...DEFAULT_SETTINGS, ...settings } },
    ] as const,
  );
}
