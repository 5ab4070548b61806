import { describe, expect, it } from 'vitest';
import { TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { isOnMediaOrigins, PLATFORM_ENV_VARS, readPlatformConfig } from './platform-config.ts';

describe("the platform's settings", () => {
  it('demo mode without any: null, so the stand-in platform is started', () => {
    expect(readPlatformConfig({}, 'demo')).toEqual({ config: null, problems: [] });
  });

  it('production refuses to start without each, naming every one that is missing', () => {
    const { config, problems } = readPlatformConfig({}, 'production');
    expect(config).toBeNull();
    for (const name of Object.keys(PLATFORM_ENV_VARS)) {
      expect(problems.join('\n')).toMatch(new RegExp(`^  ${name}: required in production`, 'm'));
    }
    const partial = readPlatformConfig({ PLATFORM_ISSUER: 'https://p.example' }, 'demo');
    expect(partial.problems).toHaveLength(Object.keys(PLATFORM_ENV_VARS).length - 1);
    expect(partial.problems.join('\n')).toMatch(/PLATFORM_JWKS_URL: required with the other/);
  });

  it('reads them all, origins as URL.origin writes them', () => {
    const { config, problems } = readPlatformConfig(
      {
        ...TEST_PLATFORM_ENV,
        PLATFORM_WEBHOOK_SECRETS: `${TEST_PLATFORM_ENV.PLATFORM_WEBHOOK_SECRETS}, whsec_${Buffer.alloc(24, 1).toString('base64')}`,
        PLATFORM_MEDIA_ORIGINS: 'https://IMG.example.com:443, http://127.0.0.1:9000',
        PLATFORM_API_URL: 'https://api.example.com/',
      },
      'production',
    );
    expect(problems).toEqual([]);
    expect(config?.webhookSecrets).toHaveLength(2);
    expect(config?.mediaOrigins).toEqual(['https://img.example.com', 'http://127.0.0.1:9000']);
    expect(config?.apiUrl).toBe('https://api.example.com');
  });

  it('refuses malformed secrets, URLs and origins', () => {
    const { problems } = readPlatformConfig(
      {
        ...TEST_PLATFORM_ENV,
        PLATFORM_WEBHOOK_SECRETS: 'secret',
        PLATFORM_EVENTS_SECRET: 'whsec_c2hvcnQ=',
        PLATFORM_JWKS_URL: 'ftp://keys.example.com',
        PLATFORM_MEDIA_ORIGINS: 'https://img.example.com/path',
      },
      'production',
    );
    expect(problems.join('\n')).toMatch(/PLATFORM_WEBHOOK_SECRETS: each must be whsec_/);
    expect(problems.join('\n')).toMatch(/PLATFORM_EVENTS_SECRET: must hold at least 24/);
    expect(problems.join('\n')).toMatch(/PLATFORM_JWKS_URL: must be an http/);
    expect(problems.join('\n')).toMatch(/PLATFORM_MEDIA_ORIGINS: .* must be an origin only/);
  });

  it('production reaches the platform over https, or over http only on this machine', () => {
    const remote = readPlatformConfig(
      {
        ...TEST_PLATFORM_ENV,
        PLATFORM_JWKS_URL: 'http://keys.example.com/jwks.json',
        PLATFORM_API_URL: 'http://10.0.0.5/api',
        PLATFORM_EVENTS_URL: 'http://platform.example.com/events',
        PLATFORM_MEDIA_ORIGINS: 'https://img.example.com, http://img.example.com',
      },
      'production',
    );
    const said = remote.problems.join('\n');
    for (const name of ['PLATFORM_JWKS_URL', 'PLATFORM_API_URL', 'PLATFORM_EVENTS_URL']) {
      expect(said).toMatch(new RegExp(`${name}: must be an https:// URL in production`));
    }
    expect(said).toMatch(/PLATFORM_MEDIA_ORIGINS: http:\/\/img\.example\.com must be an https/);
    const local = readPlatformConfig(
      {
        ...TEST_PLATFORM_ENV,
        PLATFORM_JWKS_URL: 'http://localhost:9/jwks.json',
        PLATFORM_API_URL: 'http://127.0.0.2:9/api',
        PLATFORM_EVENTS_URL: 'http://[::1]:9/events',
        PLATFORM_MEDIA_ORIGINS: 'http://127.0.0.1:9000',
      },
      'production',
    );
    expect(local.problems).toEqual([]);
    // Demo mode, against a platform of one's own: whatever it is.
    expect(readPlatformConfig({ ...TEST_PLATFORM_ENV, ...remoteUrls() }, 'demo').problems).toEqual(
      [],
    );
  });

  it('an image is on the media origins by scheme, host and port exactly', () => {
    const origins = ['https://img.example.com', 'http://127.0.0.1:9000'];
    expect(isOnMediaOrigins('https://img.example.com/a/b.jpg', origins)).toBe(true);
    expect(isOnMediaOrigins('https://IMG.example.com:443/a.jpg', origins)).toBe(true);
    expect(isOnMediaOrigins('http://img.example.com/a.jpg', origins)).toBe(false);
    expect(isOnMediaOrigins('https://img.example.com:8443/a.jpg', origins)).toBe(false);
    expect(isOnMediaOrigins('https://img.example.com.evil.test/a.jpg', origins)).toBe(false);
    expect(isOnMediaOrigins('https://user@img.example.com/a.jpg', origins)).toBe(false);
    expect(isOnMediaOrigins('http://127.0.0.1:9001/a.jpg', origins)).toBe(false);
    expect(isOnMediaOrigins('not a url', origins)).toBe(false);
  });
});

function remoteUrls(): Record<string, string> {
  return {
    PLATFORM_JWKS_URL: 'http://keys.example.com/jwks.json',
    PLATFORM_MEDIA_ORIGINS: 'http://img.example.com',
  };
}
