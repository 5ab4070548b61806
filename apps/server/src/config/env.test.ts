import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it('reads the environment', () => {
    const config = loadConfig(
      { PORT: '9000', HOST: 'localhost', LOG_LEVEL: 'warn', WEB_DIST_DIR: '/x', TRUST_PROXY: '1' },
      DEFAULTS,
    );
    expect(config).toMatchObject({
      port: 9000,
      host: 'localhost',
      logLevel: 'warn',
      webDistDir: '/x',
    });
    expect(config.trustProxy).toBe(true);
  });

  it('takes DATA_DIR as an absolute path, relative ones from the working directory', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/guquan' }, DEFAULTS).dataDir).toBe('/var/lib/guquan');
    expect(loadConfig({ DATA_DIR: 'data-here' }, DEFAULTS).dataDir).toBe(
      resolve(process.cwd(), 'data-here'),
    );
    expect(() => loadConfig({ DATA_DIR: '' }, DEFAULTS)).toThrow(/DATA_DIR/);
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
    const config = loadConfig(
      { APP_MODE: 'production', PUBLIC_ORIGIN: 'https://example.com/x', HOST: '0.0.0.0' },
      DEFAULTS,
    );
    expect(config.publicOrigin).toBe('https://example.com');
  });

  it('keeps demo mode on this machine', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' }, DEFAULTS)).toThrow(/HOST: demo mode/);
  });
});
