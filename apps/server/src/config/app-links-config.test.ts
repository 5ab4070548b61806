import { describe, expect, it } from 'vitest';
import {
  TEST_APP_LINKS_ENV,
  TEST_PHONE_ENV,
  TEST_PLATFORM_ENV,
  TEST_SMS_ENV,
} from '../test-support/test-app.ts';
import { ConfigError, loadConfig } from './env.ts';

const DEFAULTS = { webDistDir: '/srv/web/dist', dataDir: '/srv/data' };
const PRODUCTION = {
  APP_MODE: 'production',
  PUBLIC_ORIGIN: 'https://www.guquan.example',
  APPLE_BUNDLE_ID: 'com.guquan.app',
  APPLE_APP_APPLE_ID: '1234567890',
  APPLE_ENVIRONMENT: 'Production',
  APPLE_ROOT_CERTS_DIR: '/etc/apple-roots',
  ...TEST_SMS_ENV,
  ...TEST_PHONE_ENV,
  ...TEST_PLATFORM_ENV,
};

describe('the link domain’s settings', () => {
  it('demo mode: the link domain on PORT + 1, where the server also listens, with harmless defaults', () => {
    const { appLinks } = loadConfig({ PORT: '24500' }, DEFAULTS);
    expect(appLinks).toEqual({
      origin: 'http://127.0.0.1:24501',
      host: '127.0.0.1:24501',
      appleTeamId: 'DEMOTEAM00',
      appleBundleId: 'com.guquan.app',
      androidPackage: 'com.guquan.app',
      androidCertFingerprints: [Array.from({ length: 32 }, () => '00').join(':')],
      extraListenPort: 24501,
    });
  });

  it('a LINK_ORIGIN given: no extra listener; another host name of the same listener will do', () => {
    const { appLinks } = loadConfig(
      { PORT: '24500', LINK_ORIGIN: 'http://localhost:24500/' },
      DEFAULTS,
    );
    expect(appLinks).toMatchObject({
      origin: 'http://localhost:24500',
      host: 'localhost:24500',
      extraListenPort: undefined,
    });
  });

  it('production requires all three, in their right forms', () => {
    expect(() => loadConfig(PRODUCTION, DEFAULTS)).toThrow(
      /LINK_ORIGIN: required[\s\S]*APPLE_TEAM_ID: required[\s\S]*ANDROID_CERT_FINGERPRINTS: required/,
    );
    const config = loadConfig(
      {
        ...PRODUCTION,
        LINK_ORIGIN: 'https://link.guquan.example',
        APPLE_TEAM_ID: 'A1B2C3D4E5',
        ANDROID_CERT_FINGERPRINTS: `${'ab'.repeat(32)},${'CD:'.repeat(31)}CD`,
      },
      DEFAULTS,
    );
    expect(config.appLinks).toMatchObject({
      origin: 'https://link.guquan.example',
      host: 'link.guquan.example',
      appleTeamId: 'A1B2C3D4E5',
      appleBundleId: 'com.guquan.app',
      androidCertFingerprints: [
        Array.from({ length: 32 }, () => 'AB').join(':'),
        Array.from({ length: 32 }, () => 'CD').join(':'),
      ],
      extraListenPort: undefined,
    });
    expect(loadConfig({ ...PRODUCTION, ...TEST_APP_LINKS_ENV }, DEFAULTS).appLinks.origin).toBe(
      'https://link.guquan.test',
    );
  });

  it('refuses what cannot work, naming the setting', () => {
    const refused: [Record<string, string>, RegExp][] = [
      [{ LINK_ORIGIN: 'https://link.example/path' }, /LINK_ORIGIN: must be an origin/],
      [{ LINK_ORIGIN: 'ftp://link.example' }, /LINK_ORIGIN: must be an origin/],
      [{ LINK_ORIGIN: 'not a url' }, /LINK_ORIGIN: must be an origin/],
      // The site's own host: a tap on a link to it never opens the app.
      [{ PORT: '9000', LINK_ORIGIN: 'http://127.0.0.1:9000' }, /LINK_ORIGIN: must be another host/],
      // Compared as requests are told apart: a trailing dot names the same host.
      [
        { PUBLIC_ORIGIN: 'http://site.test:9000', LINK_ORIGIN: 'http://site.test.:9000' },
        /LINK_ORIGIN: must be another host/,
      ],
      [{ APPLE_TEAM_ID: 'team' }, /APPLE_TEAM_ID: must be the team id/],
      [{ ANDROID_CERT_FINGERPRINTS: 'AB:CD' }, /ANDROID_CERT_FINGERPRINTS: must be SHA-256/],
      [{ ANDROID_CERT_FINGERPRINTS: ' , ' }, /ANDROID_CERT_FINGERPRINTS: names no fingerprint/],
      [{ PORT: '0' }, /LINK_ORIGIN: required when PORT is 0/],
    ];
    for (const [env, message] of refused) {
      expect(() => loadConfig(env, DEFAULTS), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env, DEFAULTS), JSON.stringify(env)).toThrow(message);
    }
    const production = { ...PRODUCTION, ...TEST_APP_LINKS_ENV };
    expect(() =>
      loadConfig({ ...production, LINK_ORIGIN: 'http://link.guquan.example' }, DEFAULTS),
    ).toThrow(/LINK_ORIGIN: must be an https/);
    expect(() =>
      loadConfig({ ...production, LINK_ORIGIN: 'https://www.guquan.example:8443' }, DEFAULTS),
    ).toThrow(/LINK_ORIGIN: must be another host name/);
    expect(() =>
      loadConfig({ ...production, LINK_ORIGIN: 'https://WWW.guquan.example.' }, DEFAULTS),
    ).toThrow(/LINK_ORIGIN: must be another host/);
  });
});
