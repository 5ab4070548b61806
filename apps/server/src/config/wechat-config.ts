import { z } from 'zod';

/**
 * WeChat (docs/decisions/0012-wechat.md): the official account whose JS-SDK signs the share card, and the mobile
 * app's Open Platform id the open tag launches. All three or none: without them pages behave as
 * they always did. The secret is never echoed, not even in a message about it.
 */
const WECHAT_ENV_VARS = ['WECHAT_APP_ID', 'WECHAT_APP_SECRET', 'WECHAT_OPEN_APP_ID'] as const;

export interface WeChatConfig {
  /** The official account's AppID (wx…), signed into wx.config. */
  appId: string;
  /** The official account's AppSecret: only ever sent to WeChat, in a request body. */
  appSecret: string;
  /** The mobile app's AppID on the Open Platform: the open tag's `appid`. */
  openAppId: string;
  /** Where WeChat's server API is (tests point it at a stand-in on loopback). */
  apiBase: string;
}

export const DEFAULT_WECHAT_API_BASE = 'https://api.weixin.qq.com';

const appIdSchema = z
  .string()
  .regex(/^wx[0-9a-f]{16}$/, 'must be an AppID such as wx1234567890abcdef');
const secretSchema = z.string().regex(/^[0-9A-Za-z]{16,64}$/);
const apiBaseSchema = z.url({ protocol: /^https?$/ });

export function readWeChatConfig(
  env: Record<string, string | undefined>,
  mode: 'demo' | 'production',
): { config: WeChatConfig | null; problems: string[] } {
  const value = (name: string) => env[name]?.trim() ?? '';
  const given = WECHAT_ENV_VARS.filter((name) => value(name) !== '');
  if (given.length === 0) return { config: null, problems: [] };
  const problems = WECHAT_ENV_VARS.filter((name) => value(name) === '').map(
    (name) => `  ${name}: required with ${given.join(', ')} (WeChat needs all three)`,
  );
  if (value('WECHAT_APP_ID') && !appIdSchema.safeParse(value('WECHAT_APP_ID')).success)
    problems.push('  WECHAT_APP_ID: must be an AppID such as wx1234567890abcdef');
  if (value('WECHAT_OPEN_APP_ID') && !appIdSchema.safeParse(value('WECHAT_OPEN_APP_ID')).success)
    problems.push('  WECHAT_OPEN_APP_ID: must be an AppID such as wx1234567890abcdef');
  // Says what is wrong without repeating any of the value.
  if (value('WECHAT_APP_SECRET') && !secretSchema.safeParse(value('WECHAT_APP_SECRET')).success)
    problems.push('  WECHAT_APP_SECRET: must be the AppSecret, 16 to 64 letters and digits');
  const apiBase = value('WECHAT_API_BASE') || DEFAULT_WECHAT_API_BASE;
  if (!apiBaseSchema.safeParse(apiBase).success)
    problems.push('  WECHAT_API_BASE: must be an http(s) URL');
  else if (mode === 'production' && !apiBase.startsWith('https://'))
    problems.push('  WECHAT_API_BASE: must be an https:// URL in production');
  if (problems.length > 0) return { config: null, problems };
  return {
    config: {
      appId: value('WECHAT_APP_ID'),
      appSecret: value('WECHAT_APP_SECRET'),
      openAppId: value('WECHAT_OPEN_APP_ID'),
      apiBase: apiBase.replace(/\/+$/, ''),
    },
    problems: [],
  };
}
