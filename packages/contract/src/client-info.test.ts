import { describe, expect, it } from 'vitest';
import { REAL_USER_AGENTS } from '../../../tests/support/real-user-agents.ts';
import { clientClassSamples, detectClient, type InAppBrowser } from './client-info.ts';

const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('detectClient', () => {
  it('tells the platform', () => {
    expect(detectClient(DESKTOP_CHROME)).toEqual({ platform: 'other', inAppBrowser: 'none' });
    expect(detectClient(undefined)).toEqual({ platform: 'other', inAppBrowser: 'none' });
  });

  it.each(REAL_USER_AGENTS)('recognises $name', ({ userAgent, platform, inAppBrowser }) => {
    expect(detectClient(userAgent)).toEqual({ platform, inAppBrowser });
  });

  it('has a real User-Agent of every app on both platforms in its table', () => {
    const apps: InAppBrowser[] = [
      ...new Set(REAL_USER_AGENTS.map((sample) => sample.inAppBrowser)),
    ];
    for (const app of apps)
      for (const platform of ['ios', 'android'] as const)
        expect(
          REAL_USER_AGENTS.some((s) => s.inAppBrowser === app && s.platform === platform),
          `${app} on ${platform}`,
        ).toBe(true);
    expect(apps).toHaveLength(9);
  });

  it('has a sample User-Agent for every class the pages built ahead are keyed by', () => {
    const classes = new Set(
      clientClassSamples().map((ua) => {
        const { platform, inAppBrowser } = detectClient(ua);
        return `${platform}.${inAppBrowser}`;
      }),
    );
    for (const { inAppBrowser } of REAL_USER_AGENTS)
      for (const platform of ['ios', 'android', 'other'])
        expect(classes.has(`${platform}.${inAppBrowser}`), `${platform}.${inAppBrowser}`).toBe(
          true,
        );
    expect(classes.size).toBe(3 * 9);
  });
});
