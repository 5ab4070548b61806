import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  TEST_APP_LINKS_ENV,
  TEST_PHONE_ENV,
  TEST_PLATFORM_ENV,
  TEST_SMS_ENV,
  TEST_PRODUCTION_ENV,
} from '../test-support/test-app.ts';
import { ConfigError, loadConfig } from './env.ts';

const DIST = '/srv/web/dist';
const DATA = '/srv/data';
const DEFAULTS = { webDistDir: DIST, dataDir: DATA };

describe('loadConfig', () => {
  it('defaults to demo mode on 127.0.0.1:8080', () => {
    const config = loadConfig({}, DEFAULTS);
    expect(config).toMatchObject({
      mode: 'demo',
      host: '127.0.0.1',
      port: 8080,
      publicOrigin: 'http://127.0.0.1:8080',
      webDistDir: DIST,
      dataDir: DATA,
      trustProxy: false,
    });
  });

  it('uses SQLite in DATA_DIR unless DATABASE_URL names a PostgreSQL database', () => {
    expect(loadConfig({}, DEFAULTS).database).toEqual({
      engine: 'sqlite',
      file: `${DATA}/guquan.sqlite`,
    });
    for (const url of ['postgres://app:secret@db.internal:5433/guquan', 'postgresql://db/guquan']) {
      expect(loadConfig({ DATABASE_URL: url }, DEFAULTS).database).toEqual({
        engine: 'postgres',
        url,
        poolSize: 10,
      });
    }
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db/guquan', DATABASE_POOL_SIZE: '25' }, DEFAULTS)
        .database,
    ).toMatchObject({ poolSize: 25 });
  });

  it('refuses a DATABASE_URL it cannot use, naming the variable but never repeating the URL', () => {
    for (const url of [
      'mysql://app:s3cret-pw@db/guquan',
      'not a url s3cret-pw',
      'postgres://app:s3cret-pw@db.internal',
      '',
    ]) {
      const attempt = () => loadConfig({ DATABASE_URL: url }, DEFAULTS);
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/DATABASE_URL/);
      expect(attempt).not.toThrow(/s3cret-pw/);
    }
    for (const size of ['0', '-1', 'ten', '2.5']) {
      expect(() =>
        loadConfig({ DATABASE_URL: 'postgres://db/guquan', DATABASE_POOL_SIZE: size }, DEFAULTS),
      ).toThrow(/DATABASE_POOL_SIZE/);
    }
  });

  it('reads the environment', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: 'localhost',
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: '/x',
        TRUST_PROXY: '10.0.0.1',
      },
      DEFAULTS,
    );
    expect(config).toMatchObject({
      port: 9000,
      host: 'localhost',
      logLevel: 'warn',
      webDistDir: '/x',
    });
    expect(config.trustProxy).toEqual(['10.0.0.1']);
  });

  it('takes DATA_DIR as an absolute path, relative ones from the working directory', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/guquan' }, DEFAULTS).dataDir).toBe('/var/lib/guquan');
    expect(loadConfig({ DATA_DIR: 'data-here' }, DEFAULTS).dataDir).toBe(
      resolve(process.cwd(), 'data-here'),
    );
    expect(() => loadConfig({ DATA_DIR: '' }, DEFAULTS)).toThrow(/DATA_DIR/);
  });

  it('keeps image originals and resized copies under DATA_DIR unless MEDIA_DIR says', () => {
    expect(loadConfig({ DATA_DIR: '/d' }, DEFAULTS)).toMatchObject({
      mediaDir: '/d/media',
      mediaCacheDir: '/d/media-cache',
    });
    expect(
      loadConfig({ DATA_DIR: '/d', MEDIA_DIR: '/shared/m', MEDIA_CACHE_DIR: 'cache' }, DEFAULTS),
    ).toMatchObject({ mediaDir: '/shared/m', mediaCacheDir: resolve(process.cwd(), 'cache') });
    expect(() => loadConfig({ MEDIA_DIR: '' }, DEFAULTS)).toThrow(/MEDIA_DIR/);
  });

  it('takes REDIS_URL as a redis:// URL and leaves it unset by default', () => {
    expect(loadConfig({}, DEFAULTS).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/0' }, DEFAULTS).redisUrl).toBe(
      'redis://127.0.0.1:6379/0',
    );
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' }, DEFAULTS)).toThrow(/REDIS_URL/);
  });

  it('takes TRUST_PROXY as a flag or as the proxies’ addresses and CIDR blocks', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }, DEFAULTS).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }, DEFAULTS).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }, DEFAULTS).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', 'example.com', '127.0.0.1/8/1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }, DEFAULTS)).toThrow(/TRUST_PROXY/);
    }
  });

  it('names each malformed variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', APP_MODE: 'staging' }, DEFAULTS)).toThrow(
      /PORT[\s\S]*APP_MODE|APP_MODE[\s\S]*PORT/,
    );
    expect(() => loadConfig({ PORT: '70000' }, DEFAULTS)).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'javascript:alert(1)' }, DEFAULTS)).toThrow(
      /PUBLIC_ORIGIN/,
    );
  });

  it('refuses production without its real configuration', () => {
    expect(() => loadConfig({ APP_MODE: 'production' }, DEFAULTS)).toThrow(
      /PUBLIC_ORIGIN: required/,
    );
    expect(() =>
      loadConfig({ APP_MODE: 'production', PUBLIC_ORIGIN: 'http://example.com' }, DEFAULTS),
    ).toThrow(/https/);
    const apple = {
      APPLE_BUNDLE_ID: 'com.example.app',
      APPLE_APP_APPLE_ID: '1234567890',
      APPLE_ENVIRONMENT: 'Production',
      APPLE_ROOT_CERTS_DIR: '/etc/apple-roots',
    };
    const production = {
      APP_MODE: 'production',
      PUBLIC_ORIGIN: 'https://example.com/x',
      HOST: '0.0.0.0',
      ...apple,
    };
    expect(() => loadConfig(production, DEFAULTS)).toThrow(
      /ALIYUN_SMS_ACCESS_KEY_ID: required[\s\S]*ALIYUN_SMS_TEMPLATE_ACCOUNT_DELETED: required/,
    );
    expect(() => loadConfig({ ...production, ...TEST_SMS_ENV }, DEFAULTS)).toThrow(
      /PHONE_ENCRYPTION_KEY: required in production/,
    );
    expect(() =>
      loadConfig({ ...production, ...TEST_SMS_ENV, ...TEST_PHONE_ENV }, DEFAULTS),
    ).toThrow(/LINK_ORIGIN: required in production/);
    const config = loadConfig(
      {
        ...production,
        ...TEST_SMS_ENV,
        ...TEST_PHONE_ENV,
        ...TEST_APP_LINKS_ENV,
        ...TEST_PLATFORM_ENV,
      },
      DEFAULTS,
    );
    expect(config.publicOrigin).toBe('https://example.com');
    expect(config.sms).toMatchObject({
      signName: '谷圈',
      codeTemplate: 'SMS_000001',
      endpoint: 'https://dysmsapi.aliyuncs.com',
    });
    expect(() =>
      loadConfig(
        { ...production, ...TEST_SMS_ENV, ALIYUN_SMS_ENDPOINT: 'http://sms.example' },
        DEFAULTS,
      ),
    ).toThrow(/ALIYUN_SMS_ENDPOINT/);
    // Demo mode never sends a text and needs none of it.
    expect(loadConfig({}, DEFAULTS).sms).toBeNull();
    expect(config.appStore).toEqual({
      bundleId: 'com.example.app',
      appAppleId: 1234567890,
      environment: 'Production',
      rootCertsDir: '/etc/apple-roots',
    });
  });

  it('refuses NODE_ENV=production without APP_MODE rather than start the demo', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, DEFAULTS)).toThrow(
      /APP_MODE: required when NODE_ENV is production/,
    );
    expect(loadConfig({ NODE_ENV: 'production', APP_MODE: 'demo' }, DEFAULTS).mode).toBe('demo');
    expect(loadConfig({ NODE_ENV: 'development' }, DEFAULTS).mode).toBe('demo');
  });

  it('requires the App Store settings in production, and never an Xcode environment', () => {
    const production = { APP_MODE: 'production', PUBLIC_ORIGIN: 'https://example.com' };
    for (const name of ['APPLE_BUNDLE_ID', 'APPLE_ENVIRONMENT', 'APPLE_ROOT_CERTS_DIR']) {
      expect(() => loadConfig(production, DEFAULTS)).toThrow(new RegExp(`${name}: required`));
    }
    // The app's Apple id only with Production, as docs/configuration.md says: Sandbox needs none.
    expect(() => loadConfig({ ...production, APPLE_ENVIRONMENT: 'Sandbox' }, DEFAULTS)).not.toThrow(
      /APPLE_APP_APPLE_ID/,
    );
    expect(() => loadConfig({ ...production, APPLE_ENVIRONMENT: 'Production' }, DEFAULTS)).toThrow(
      /APPLE_APP_APPLE_ID: required when APPLE_ENVIRONMENT is Production/,
    );
    expect(() => loadConfig({ APPLE_ENVIRONMENT: 'Xcode' }, DEFAULTS)).toThrow(/APPLE_ENVIRONMENT/);
    expect(() => loadConfig({ APPLE_ENVIRONMENT: 'LocalTesting' }, DEFAULTS)).toThrow(
      /APPLE_ENVIRONMENT/,
    );
    expect(() => loadConfig({ APPLE_ENVIRONMENT: 'Production' }, DEFAULTS)).toThrow(
      /APPLE_APP_APPLE_ID/,
    );
    expect(loadConfig({}, DEFAULTS).appStore).toMatchObject({
      bundleId: 'com.guquan.app',
      environment: 'Sandbox',
      rootCertsDir: undefined,
    });
  });

  it('keeps demo mode on this machine', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' }, DEFAULTS)).toThrow(/HOST: demo mode/);
  });

  it('reads the phone keys, and never prints one', () => {
    const current = Buffer.alloc(32, 9).toString('base64');
    const old = Buffer.alloc(32, 8).toString('base64url');
    const config = loadConfig(
      { PHONE_ENCRYPTION_KEY: `k2:${current}`, PHONE_ENCRYPTION_PREVIOUS_KEYS: `k1:${old}` },
      DEFAULTS,
    );
    expect(config.phoneKeys?.current.id).toBe('k2');
    expect(config.phoneKeys?.previous.map((key) => key.id)).toEqual(['k1']);
    // Demo mode without one makes its own (in DATA_DIR, when the app starts).
    expect(loadConfig({}, DEFAULTS).phoneKeys).toBeNull();
    const secret = 'c2hvcnQtYW5kLXNlY3JldA';
    for (const bad of [secret, `k1:${secret}`, `bad id!:${current}`]) {
      let message = '';
      try {
        loadConfig({ PHONE_ENCRYPTION_KEY: bad }, DEFAULTS);
      } catch (error) {
        message = error instanceof Error ? error.message : '';
      }
      expect(message).toMatch(/PHONE_ENCRYPTION_KEY/);
      expect(message).not.toContain(secret);
    }
    expect(() =>
      loadConfig(
        { PHONE_ENCRYPTION_KEY: `k1:${current}`, PHONE_ENCRYPTION_PREVIOUS_KEYS: `k1:${old}` },
        DEFAULTS,
      ),
    ).toThrow(/an id of its own/);
  });

  it('opens the operators’ listener on loopback: by default in demo mode, only when asked in production', () => {
    expect(loadConfig({}, DEFAULTS).ops).toEqual({ host: '127.0.0.1', port: 8090 });
    // Another PORT moves it too (issue 39): two demo sites side by side share no port.
    expect(loadConfig({ PORT: '9000' }, DEFAULTS).ops).toEqual({ host: '127.0.0.1', port: 9010 });
    expect(loadConfig({ PORT: '0', LINK_ORIGIN: 'http://127.0.0.1:9' }, DEFAULTS).ops).toEqual({
      host: '127.0.0.1',
      port: 0,
    });
    expect(() => loadConfig({ PORT: '65530' }, DEFAULTS)).toThrow(/OPS_PORT: required when PORT/);
    expect(loadConfig({ OPS_PORT: '9464' }, DEFAULTS).ops).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig({ OPS_PORT: 'off' }, DEFAULTS).ops).toBeNull();
    const production = {
      ...TEST_PRODUCTION_ENV,
    };
    expect(loadConfig(production, DEFAULTS).ops).toBeNull();
    expect(
      loadConfig({ ...production, OPS_HOST: '10.0.0.5', OPS_PORT: '9464' }, DEFAULTS).ops,
    ).toEqual({ host: '10.0.0.5', port: 9464 });
    // Demo mode stays on this machine, and the listener never shares the public port.
    expect(() => loadConfig({ OPS_HOST: '0.0.0.0' }, DEFAULTS)).toThrow(/OPS_HOST/);
    expect(() => loadConfig({ PORT: '9000', OPS_PORT: '9000' }, DEFAULTS)).toThrow(/OPS_PORT/);
    expect(() => loadConfig({ OPS_PORT: 'on' }, DEFAULTS)).toThrow(/OPS_PORT/);
  });

  it('refuses every numeric setting given empty, naming it: OPS_PORT= is not port 0', () => {
    const production = {
      ...TEST_PRODUCTION_ENV,
    };
    // Every number env.ts reads. Empty was read as 0: OPS_PORT= opened the operators' listener
    // (and /metrics) on a random port in production, PORT= the site on one.
    const numeric = ['OPS_PORT', 'PORT', 'DATABASE_POOL_SIZE', 'APPLE_APP_APPLE_ID'];
    for (const base of [{}, production])
      for (const name of numeric)
        for (const empty of ['', ' ']) {
          const attempt = () =>
            loadConfig({ ...base, DATABASE_URL: 'postgres://db/guquan', [name]: empty }, DEFAULTS);
          expect(attempt, `${name}=${empty}`).toThrow(ConfigError);
          expect(attempt, `${name}=${empty}`).toThrow(new RegExp(`^  ${name}: is empty`, 'm'));
        }
    // Given, each is read as before; a number is written in decimal digits.
    expect(loadConfig({ ...production, OPS_PORT: ' 9464 ' }, DEFAULTS).ops?.port).toBe(9464);
    expect(
      loadConfig({ PORT: '0', OPS_PORT: '0', LINK_ORIGIN: 'http://link.test' }, DEFAULTS),
    ).toMatchObject({
      port: 0,
      ops: { port: 0 },
    });
    for (const [name, value] of [
      ['PORT', '0x1f90'],
      ['PORT', '1e3'],
      ['OPS_PORT', '-0'],
      ['APPLE_APP_APPLE_ID', '0'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }, DEFAULTS), `${name}=${value}`).toThrow(
        new RegExp(`^  ${name}: must be`, 'm'),
      );
    }
  });

  it('logs readable lines in demo mode and JSON in production unless LOG_FORMAT says', () => {
    expect(loadConfig({}, DEFAULTS).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }, DEFAULTS).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' }, DEFAULTS)).toThrow(/LOG_FORMAT/);
  });
});
