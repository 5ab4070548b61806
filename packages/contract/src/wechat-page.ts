/**
 * What a share page needs of WeChat's JS-SDK (docs/decisions/0012-wechat.md) before it asks for anything: plain code
 * without zod, so every share page's start-up stays free of the schemas (share-paths.ts is the same
 * for shares). The signature request and its schemas are in wechat.ts, loaded only inside WeChat.
 */

/** `<meta name="guquan-wechat" content="on">`: this server signs wx.config for its share pages. */
export const WECHAT_META_NAME = 'guquan-wechat';

/** Where the JS-SDK comes from; 1.6.0 is the first with open tags. */
export const WECHAT_JS_SDK_ORIGIN = 'https://res.wx.qq.com';
export const WECHAT_JS_SDK_URL = `${WECHAT_JS_SDK_ORIGIN}/open/js/jweixin-1.6.0.js`;

/**
 * The open tag's template style: its content is drawn by WeChat, apart from the page's CSS, so it
 * says its own size (larger than any button, clipped by the tag's box) and stays invisible. Pages
 * sent inside WeChat allow exactly this style by its hash.
 */
export const WECHAT_LAUNCH_TEMPLATE_STYLE =
  '.launch{display:block;width:2000px;height:400px;opacity:0}';
