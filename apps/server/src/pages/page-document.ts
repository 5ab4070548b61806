import { LINK_ORIGIN_META_NAME } from '@guquan/contract/link-origin-meta';
import type { Language } from '@guquan/contract/language';
import type { SharePageData } from '@guquan/contract/page-render';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { WECHAT_META_NAME } from '@guquan/contract/wechat-page';
import { escapeHtml } from '../http/html-escape.ts';
import { fillTemplate } from './html-document.ts';
import { pageAssets } from './page-assets.ts';
import { headTags, NOINDEX } from './page-head.ts';
import { pageContentSecurityPolicy } from './page-csp.ts';
import type { WebBuild } from './web-build.ts';

/** What a page's document depends on besides the request: fixed for the life of the process. */
export interface DocumentSettings {
  build: WebBuild;
  /** The origin visitors reach the site at: previews need absolute URLs. */
  publicOrigin: string;
  /** In demo mode pages say so, and in-app pages opened in a browser load the bridge simulator. */
  demo?: boolean;
  /** With the WeChat settings pages say so: inside WeChat, share pages then load the JS-SDK. */
  wechat?: boolean;
  /** The app's link domain (LINK_ORIGIN): every page says it (linkOriginMeta), share pages use it. */
  linkOrigin?: string;
}

/** The marker in-app pages look for before loading the bridge simulator (demo mode only). */
export const DEMO_MODE_META = '<meta name="guquan-mode" content="demo">';

/** The marker share pages look for, inside WeChat, before asking for their wx.config signature. */
export const WECHAT_META = `<meta name="${WECHAT_META_NAME}" content="on">`;

/** The marker that gives the page the app's link domain: the server's setting, not the build's. */
export function linkOriginMeta(linkOrigin: string): string {
  return `<meta name="${LINK_ORIGIN_META_NAME}" content="${escapeHtml(linkOrigin)}">`;
}

const SITE_NAMES: Readonly<Record<Language, string>> = { 'zh-CN': '谷圈', en: 'Goods Circle' };

export interface DocumentRequest {
  /** Path and query under the base path, as the browser asked for it. */
  url: string;
  language: Language;
  userAgent?: string;
  signal?: AbortSignal;
  /** A share page's item, as the server read it for this page. */
  share?: SharePageData;
}

/** A whole HTML document and the Content-Security-Policy that allows exactly its inline code. */
export interface RenderedDocument {
  status: number;
  html: string;
  csp: string;
  /** The robots directive the page's head carries (its meta tag), for X-Robots-Tag. */
  robots: string | undefined;
}

/** Renders a page with the web app's server entry and puts it into the build's index.html. */
export async function renderDocument(
  { build, publicOrigin, demo, wechat, linkOrigin }: DocumentSettings,
  { url, language, userAgent, signal, share }: DocumentRequest,
): Promise<RenderedDocument> {
  const page = await build.renderer.renderPage({
    url,
    language,
    userAgent,
    signal,
    share,
    linkOrigin,
  });
  const assets = pageAssets(build, page.modules, `${BASE_PATH}/`, page.start);
  const html = fillTemplate(build.template, {
    language,
    title: page.title,
    head:
      (demo ? DEMO_MODE_META : '') +
      (wechat ? WECHAT_META : '') +
      (linkOrigin ? linkOriginMeta(linkOrigin) : '') +
      headTags(page.head, {
        title: page.title,
        origin: publicOrigin,
        url,
        siteName: SITE_NAMES[language],
      }) +
      assets.head,
    scripts: page.hydrationScript + assets.scripts,
    appHtml: page.html,
  });
  return {
    status: page.status,
    html,
    csp: pageContentSecurityPolicy(html, demo !== true),
    robots: page.head.noindex ? NOINDEX : undefined,
  };
}
