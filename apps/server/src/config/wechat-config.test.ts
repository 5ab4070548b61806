import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';
import { readWeChatConfig } from './wechat-config.ts';

const DEFAULTS = { webDistDir: '/srv/web', dataDir: '/srv/data' };
const SECRET = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const FULL = {
  WECHAT_APP_ID: 'wx1234567890abcdef',
  WECHAT_APP_SECRET: SECRET,
  WECHAT_OPEN_APP_ID: 'wxfedcba0987654321',
};

describe('the WeChat settings', () => {
  it('are off without any of them', () => {
    expect(loadConfig({}, DEFAULTS).wechat).toBeNull();
  });

  it('are read when all three are given, with WeChat’s API by default', () => {
    expect(loadConfig(FULL, DEFAULTS).wechat).toEqual({
      appId: 'wx1234567890abcdef',
      appSecret: SECRET,
      openAppId: 'wxfedcba0987654321',
      apiBase: 'https://api.weixin.qq.com',
    });
    expect(
      readWeChatConfig({ ...FULL, WECHAT_API_BASE: 'http://127.0.0.1:9/' }, 'demo').config?.apiBase,
    ).toBe('http://127.0.0.1:9');
  });

  it('stop the start when only some are given, naming what is missing, never the secret', () => {
    const partial = { WECHAT_APP_ID: FULL.WECHAT_APP_ID, WECHAT_APP_SECRET: SECRET };
    expect(() => loadConfig(partial, DEFAULTS)).toThrow(ConfigError);
    try {
      loadConfig(partial, DEFAULTS);
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      expect(message).toContain('WECHAT_OPEN_APP_ID: required');
      expect(message).not.toContain(SECRET);
    }
    expect(() => loadConfig({ WECHAT_APP_SECRET: SECRET }, DEFAULTS)).toThrow(/WECHAT_APP_ID/);
  });

  it('refuse malformed values without echoing the secret', () => {
    const bad = 'not a secret!';
    const { problems } = readWeChatConfig(
      { ...FULL, WECHAT_APP_ID: 'wechat', WECHAT_APP_SECRET: bad, WECHAT_API_BASE: 'ftp://x' },
      'demo',
    );
    expect(problems.join('\n')).toMatch(/WECHAT_APP_ID[\s\S]*WECHAT_APP_SECRET[\s\S]*API_BASE/);
    expect(problems.join('\n')).not.toContain(bad);
    expect(
      readWeChatConfig({ ...FULL, WECHAT_API_BASE: 'http://api.example.com' }, 'production')
        .problems,
    ).toEqual(['  WECHAT_API_BASE: must be an https:// URL in production']);
  });
});
