import { z } from 'zod';
import { API_BASE_PATH } from './site-paths.ts';

/**
 * WeChat's JS-SDK on share pages (docs/decisions/0012-wechat.md). A page opened inside WeChat, on a server with the
 * WeChat settings (the page says so with WECHAT_META), asks for its wx.config signature here, then
 * loads the JS-SDK: the share card and the open tag that launches the app.
 */
export const WECHAT_JS_CONFIG_PATH = `${API_BASE_PATH}/wechat/js-config`;

/** `<meta name="guquan-wechat" content="on">`: this server signs wx.config for its share pages. */
export const WECHAT_META_NAME = 'guquan-wechat';

/** Where the JS-SDK comes from; 1.6.0 is the first with open tags. */
export const WECHAT_JS_SDK_ORIGIN = 'https://res.wx.qq.com';
export const WECHAT_JS_SDK_URL = `${WECHAT_JS_SDK_ORIGIN}/open/js/jweixin-1.6.0.js`;

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

/**
 * The open tag's template style: its content is drawn by WeChat, apart from the page's CSS, so it
 * says its own size (larger than any button, clipped by the tag's box) and stays invisible. Pages
 * sent inside WeChat allow exactly this style by its hash.
 */
export const WECHAT_LAUNCH_TEMPLATE_STYLE =
  '.launch{display:block;width:2000px;height:400px;opacity:0}';
