import {
  WECHAT_JS_CONFIG_PATH,
  weChatJsConfigSchema,
  type WeChatJsConfig,
} from '@guquan/contract/wechat';
import { WECHAT_JS_SDK_URL } from '@guquan/contract/wechat-page';

/**
 * WeChat's JS-SDK on a share page, loaded on demand inside WeChat only (docs/decisions/0012-wechat.md): ask our
 * server to sign wx.config for this page's exact address, load WeChat's script, configure it, and
 * resolve once WeChat says ready. Any failure (our server, WeChat, the script, a rejected
 * signature, a timeout) rejects: the page then keeps its "open in browser" guide.
 */
export interface ShareCard {
  title: string;
  desc: string;
  /** Absolute: the page the card opens. */
  link: string;
  /** Absolute: the card's picture. */
  imgUrl: string;
}

interface WxShareOptions {
  title: string;
  link: string;
  imgUrl: string;
  desc?: string;
}

/** The part of WeChat's `wx` object this page uses. */
export interface Wx {
  config(options: {
    debug: boolean;
    appId: string;
    timestamp: number;
    nonceStr: string;
    signature: string;
    jsApiList: string[];
    openTagList: string[];
  }): void;
  ready(callback: () => void): void;
  error(callback: (result: { errMsg?: string }) => void): void;
  updateAppMessageShareData(options: WxShareOptions): void;
  updateTimelineShareData(options: WxShareOptions): void;
}

declare global {
  interface Window {
    wx?: Wx;
  }
}

export interface WeChatSession {
  /** The mobile app's Open Platform AppID, for wx-open-launch-app. */
  openAppId: string;
  setShareCard(card: ShareCard): void;
}

/** How long each step may take before the page gives up on WeChat and keeps its guide. */
const STEP_TIMEOUT_MS = 8000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${what} timed out`));
    }, STEP_TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(what));
      },
    );
  });
}

async function signedConfig(pageUrl: string): Promise<WeChatJsConfig> {
  const response = await fetch(WECHAT_JS_CONFIG_PATH, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ url: pageUrl }),
    cache: 'no-store',
  });
  if (!response.ok) throw new Error(`the signature was refused (${response.status})`);
  return weChatJsConfigSchema.parse(await response.json());
}

function loadScript(doc: Document): Promise<Wx> {
  return new Promise<Wx>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = WECHAT_JS_SDK_URL;
    script.async = true;
    script.addEventListener('load', () => {
      const wx = doc.defaultView?.wx;
      if (wx) resolve(wx);
      else reject(new Error('the JS-SDK did not define wx'));
    });
    script.addEventListener('error', () => {
      reject(new Error('the JS-SDK could not be loaded'));
    });
    doc.head.append(script);
  });
}

function configure(wx: Wx, config: WeChatJsConfig): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // WeChat calls ready() after config even when it failed; error() says so first.
    let failed = false;
    wx.error((result) => {
      failed = true;
      reject(new Error(`wx.config was refused: ${result.errMsg ?? ''}`));
    });
    wx.ready(() => {
      if (!failed) resolve();
    });
    wx.config({
      debug: false,
      appId: config.appId,
      timestamp: config.timestamp,
      nonceStr: config.nonceStr,
      signature: config.signature,
      jsApiList: ['updateAppMessageShareData', 'updateTimelineShareData'],
      openTagList: ['wx-open-launch-app'],
    });
  });
}

export async function startWeChatJsSdk(doc: Document, pageUrl: string): Promise<WeChatSession> {
  const [config, wx] = await Promise.all([
    withTimeout(signedConfig(pageUrl), 'the signature'),
    withTimeout(loadScript(doc), 'the JS-SDK'),
  ]);
  await withTimeout(configure(wx, config), 'wx.config');
  return {
    openAppId: config.openAppId,
    setShareCard(card) {
      wx.updateAppMessageShareData({
        title: card.title,
        desc: card.desc,
        link: card.link,
        imgUrl: card.imgUrl,
      });
      wx.updateTimelineShareData({ title: card.title, link: card.link, imgUrl: card.imgUrl });
    },
  };
}
