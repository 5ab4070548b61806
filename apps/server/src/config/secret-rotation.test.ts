import { afterEach, describe, expect, it, vi } from 'vitest';
import { rotatingPhoneProtection } from '../crypto/phone-keys.ts';
import { newPhoneKeyText } from '../crypto/phone-protection.ts';
import { TEST_PHONE_ENV, TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { loadConfig, type Config } from './env.ts';
import type { PlatformConfig } from './platform-config.ts';
import { rotateSecrets, type RotatingParts } from './secret-rotation.ts';

const DEFAULTS = { webDistDir: '/nowhere/web', dataDir: '/nowhere/data' };
const PHONE = '+8613800138000';

function configWith(env: Record<string, string>): Config {
  return loadConfig({ ...TEST_PLATFORM_ENV, ...TEST_PHONE_ENV, ...env }, DEFAULTS);
}

function runningParts(): RotatingParts & { platform: PlatformConfig } {
  const config = configWith({});
  if (!config.platform || !config.phoneKeys) throw new Error('the test settings are incomplete');
  return {
    platform: config.platform,
    phones: rotatingPhoneProtection(config.phoneKeys),
    reencryptPhones: vi.fn(() => Promise.resolve(0)),
    log: { info: vi.fn(), error: vi.fn() },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('secrets rotated on a running server', () => {
  it('replaces the platform’s secrets in the object every part reads them from', () => {
    const parts = runningParts();
    const held = parts.platform;
    const webhook = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
    const events = `whsec_${Buffer.alloc(32, 6).toString('base64')}`;
    const changed = rotateSecrets(
      parts,
      configWith({
        PLATFORM_WEBHOOK_SECRETS: `${TEST_PLATFORM_ENV.PLATFORM_WEBHOOK_SECRETS},${webhook}`,
        PLATFORM_API_TOKEN: 'a-new-service-token',
        PLATFORM_EVENTS_SECRET: events,
      }),
    );
    expect(changed).toEqual([
      'PLATFORM_WEBHOOK_SECRETS',
      'PLATFORM_API_TOKEN',
      'PLATFORM_EVENTS_SECRET',
    ]);
    expect(parts.platform).toBe(held);
    expect(held.webhookSecrets).toEqual([TEST_PLATFORM_ENV.PLATFORM_WEBHOOK_SECRETS, webhook]);
    expect(held.apiToken).toBe('a-new-service-token');
    expect(held.eventsSecret).toBe(events);
    // The same settings again: nothing changes.
    expect(
      rotateSecrets(
        parts,
        configWith({
          PLATFORM_WEBHOOK_SECRETS: `${TEST_PLATFORM_ENV.PLATFORM_WEBHOOK_SECRETS},${webhook}`,
          PLATFORM_API_TOKEN: 'a-new-service-token',
          PLATFORM_EVENTS_SECRET: events,
        }),
      ),
    ).toEqual([]);
  });

  it('takes a new phone key: what the old one wrote still reads, and is re-encrypted', () => {
    const parts = runningParts();
    const before = parts.phones.encrypt(PHONE);
    const next = newPhoneKeyText('test2');
    const changed = rotateSecrets(
      parts,
      configWith({
        PHONE_ENCRYPTION_KEY: next,
        PHONE_ENCRYPTION_PREVIOUS_KEYS: TEST_PHONE_ENV.PHONE_ENCRYPTION_KEY ?? '',
      }),
    );
    expect(changed).toEqual(['PHONE_ENCRYPTION_KEY']);
    expect(parts.phones.decrypt(before)).toBe(PHONE);
    expect(parts.phones.isCurrent(before)).toBe(false);
    const after = parts.phones.encrypt(PHONE);
    expect(after.startsWith('v1:test2:')).toBe(true);
    expect(parts.phones.indexes(PHONE)).toHaveLength(2);
    expect(parts.reencryptPhones).toHaveBeenCalledTimes(1);
  });

  it('leaves a demo server on the stand-in platform as it is', () => {
    const parts = runningParts();
    const demo = loadConfig({}, DEFAULTS);
    expect(demo.platform).toBeNull();
    expect(rotateSecrets(parts, demo)).toEqual([]);
  });
});
