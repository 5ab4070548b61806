import { z } from 'zod';
import { API_BASE_PATH } from './site-paths.ts';

/**
 * WeChat's JS-SDK on share pages (docs/decisions/0012-wechat.md). A page opened inside WeChat, on a server with the
 * WeChat settings (the page says so with WECHAT_META_NAME, in wechat-page.ts), asks for its
 * wx.config signature here, then loads the JS-SDK: the share card and the open tag that launches
 * the app. What the page needs before that is in wechat-page.ts, without zod.
 */
export const WECHAT_JS_CONFIG_PATH = `${API_BASE_PATH}/wechat/js-config`;

export const weChatJsConfigRequestSchema = z.object({
  /** The page's exact address, without its `#…`: WeChat checks the signature against it. */
  url: z.url({ protocol: /^https?$/ }).max(2048),
});
export type WeChatJsConfigRequest = z.infer<typeof weChatJsConfigRequestSchema>;

const appIdSchema = z.string().regex(/^wx[0-9a-f]{16}$/);

export const weChatJsConfigSchema = z.object({
  /** The official account's AppID. */
  appId: appIdSchema,
  timestamp: z.number().int().positive(),
  nonceStr: z.string().regex(/^[0-9A-Za-z]{16}$/),
  signature: z.string().regex(/^[0-9a-f]{40}$/),
  /** The mobile app's AppID on the Open Platform, for wx-open-launch-app. */
  openAppId: appIdSchema,
});
export type WeChatJsConfig = z.infer<typeof weChatJsConfigSchema>;
