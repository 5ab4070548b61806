import { createHash } from 'node:crypto';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { escapeHtml } from '../http/html-escape.ts';

/**
 * The link domain's answer to an address that is none of the app's links: the site's look (its
 * colours, its mark, its column and button) and the visitor's language, with the way to the
 * website and the same address in the other language. No script; its one inline style is allowed
 * by its hash in the response's own policy, as every page of the site's (pages/page-csp.ts).
 */

const TEXTS = {
  'zh-CN': {
    title: '页面不存在 · 谷圈',
    brand: '谷圈',
    heading: '页面不存在',
    body: '这个链接不是谷圈 App 的分享链接，可能不完整或已失效。请检查链接，或前往谷圈官网。',
    toWebsite: '前往谷圈官网',
    languageLabel: '语言',
  },
  en: {
    title: 'Page not found · Goods Circle',
    brand: 'Goods Circle',
    heading: 'Page not found',
    body: 'This link is not one of the Goods Circle app’s share links: it may be incomplete or out of date. Please check it, or go to the Goods Circle website.',
    toWebsite: 'Go to the Goods Circle website',
    languageLabel: 'Language',
  },
} as const satisfies Record<Language, Record<string, string>>;

const OTHER: Readonly<Record<Language, { language: Language; name: string }>> = {
  'zh-CN': { language: 'en', name: 'English' },
  en: { language: 'zh-CN', name: '中文' },
};

/** The site's fonts for each language (apps/web/src/styles/global.css): Latin text in a Latin font. */
const FONTS: Readonly<Record<Language, string>> = {
  'zh-CN':
    "'WenQuanYi Micro Hei','Noto Sans CJK SC',-apple-system,BlinkMacSystemFont,'PingFang SC','Hiragino Sans GB','Microsoft YaHei','Helvetica Neue',Arial,sans-serif",
  en: "'DejaVu Sans',-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,'WenQuanYi Micro Hei','Noto Sans CJK SC','PingFang SC','Hiragino Sans GB','Microsoft YaHei',sans-serif",
};

/** The site's tokens and the status view's look, in plain px (no layout script here). */
const style = (language: Language) =>
  [
    `body{margin:0;background:#f5f4f8;color:#1f1d2b;font-family:${FONTS[language]};line-height:1.5;-webkit-text-size-adjust:100%;text-size-adjust:100%}`,
    'main{box-sizing:border-box;max-width:414px;min-height:100vh;min-height:100dvh;margin:0 auto;padding:96px 32px 48px;background:#fff;text-align:center;display:flex;flex-direction:column;align-items:center}',
    '.mark{display:inline-flex;align-items:center;justify-content:center;width:48px;height:48px;border-radius:13px;background:#d6245a;color:#fff;font-size:27px;font-weight:700;line-height:1}',
    '.brand{margin:8px 0 32px;font-size:14px;color:#5c5a6b}',
    'h1{margin:0 0 8px;font-size:20px;line-height:1.4}',
    'p{margin:0 0 28px;max-width:300px;font-size:14px;line-height:1.6;color:#5c5a6b}',
    '.button{display:inline-flex;align-items:center;justify-content:center;min-width:160px;min-height:44px;padding:0 24px;border-radius:999px;background:#d6245a;color:#fff;font-size:15px;font-weight:600;text-decoration:none}',
    'a:focus-visible{outline:3px solid #2f6bff;outline-offset:2px}',
    'nav{margin-top:24px}',
    'nav a{display:inline-flex;align-items:center;min-height:44px;color:#1d4fc4}',
    '.code{margin:24px 0 0;font-size:12px;color:#5c5a6b}',
  ].join('');

export interface LinkDomainNotFoundPage {
  html: string;
  /** The hash of its inline style, for the response's Content-Security-Policy. */
  styleHash: string;
}

/**
 * The page for `language`; `path` is the address asked for (its `?lang=` replaced), the other
 * language's link; `websiteHref` the website in the same language, on the site's origin.
 */
export function linkDomainNotFoundPage(
  language: Language,
  path: string,
  publicOrigin: string,
): LinkDomainNotFoundPage {
  const text = TEXTS[language];
  const other = OTHER[language];
  const css = style(language);
  const website = `${publicOrigin}${BASE_PATH}/website?lang=${language}`;
  const html =
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="robots" content="noindex, nofollow"><title>${escapeHtml(text.title)}</title>` +
    `<style>${css}</style></head><body><main>` +
    `<span class="mark" aria-hidden="true">谷</span><span class="brand">${escapeHtml(text.brand)}</span>` +
    `<h1>${escapeHtml(text.heading)}</h1><p>${escapeHtml(text.body)}</p>` +
    `<a class="button" href="${escapeHtml(website)}">${escapeHtml(text.toWebsite)}</a>` +
    `<nav aria-label="${escapeHtml(text.languageLabel)}"><a href="${escapeHtml(pathInLanguage(path, other.language))}" lang="${other.language}" hreflang="${other.language}">${other.name}</a></nav>` +
    '<span class="code">404</span></main></body></html>';
  return {
    html,
    styleHash: `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`,
  };
}

/** The same address on this domain with `?lang=` set, every other parameter kept. */
function pathInLanguage(url: string, language: Language): string {
  const parsed = new URL(url, 'http://link.internal');
  parsed.searchParams.set('lang', language);
  return `${parsed.pathname}${parsed.search}`;
}

/** `policy` (the response's Content-Security-Policy) allowing exactly the page's inline style. */
export function allowingStyle(policy: string, styleHash: string): string {
  return /(^|;)style-src /.test(policy)
    ? policy.replace(/(^|;)style-src ([^;]*)/, `$1style-src $2 ${styleHash}`)
    : `${policy};style-src 'self' ${styleHash}`;
}
