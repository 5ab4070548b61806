import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { escapeHtml } from '../http/html-escape.ts';
import { fillTemplate } from './html-document.ts';
import { pageAssets } from './page-assets.ts';
import { pageContentSecurityPolicy } from './page-csp.ts';
import type { RenderedDocument } from './page-document.ts';
import { NOINDEX } from './page-head.ts';
import type { WebBuild } from './web-build.ts';

interface PlainPageTexts {
  title: string;
  message: string;
  retry: string;
  /** Before the request's id, which lets a visitor's report find the log lines. */
  reference: string;
}

const FAILURE_TEXTS: Readonly<Record<Language, PlainPageTexts>> = {
  'zh-CN': {
    title: '页面出错了',
    message: '页面暂时无法显示，请稍后重试。',
    retry: '重试',
    reference: '编号',
  },
  en: {
    title: 'Something went wrong',
    message: 'This page cannot be shown right now. Please try again.',
    retry: 'Try again',
    reference: 'Reference',
  },
};

const BUSY_TEXTS: Readonly<Record<Language, PlainPageTexts>> = {
  'zh-CN': {
    title: '请稍后再试',
    message: '短时间内打开的新页面太多了，请稍等片刻再试。',
    retry: '重试',
    reference: '编号',
  },
  en: {
    title: 'Please try again shortly',
    message: 'Too many new pages were opened from here in a short time. Please wait a moment.',
    retry: 'Try again',
    reference: 'Reference',
  },
};

type PageBuild = Pick<WebBuild, 'template' | 'manifest' | 'entryStyles' | 'styles'>;

/**
 * A plain HTML page in the request's language with a link that loads the same address again. It
 * names nothing internal, carries no script (the app is not started) and only the site's base
 * styles.
 */
function plainPage(
  build: PageBuild,
  status: number,
  text: PlainPageTexts,
  url: string,
  language: Language,
  production: boolean,
  requestId?: string,
): RenderedDocument {
  const reference =
    requestId === undefined
      ? ''
      : `<p><small>${escapeHtml(text.reference)}: <code>${escapeHtml(requestId)}</code></small></p>`;
  const html = fillTemplate(build.template, {
    language,
    title: text.title,
    head: `<meta name="robots" content="${NOINDEX}">` + pageAssets(build, [], `${BASE_PATH}/`).head,
    appHtml: `<main role="alert"><h1>${escapeHtml(text.title)}</h1><p>${escapeHtml(text.message)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(text.retry)}</a></p>${reference}</main>`,
    scripts: '',
  });
  return { status, html, csp: pageContentSecurityPolicy(html, production), robots: NOINDEX };
}

/** What a page answers when rendering it failed (500). */
export function renderFailurePage(
  build: PageBuild,
  url: string,
  language: Language,
  production: boolean,
  /** The request's id, shown so that a visitor's report finds the log lines. */
  requestId?: string,
): RenderedDocument {
  return plainPage(build, 500, FAILURE_TEXTS[language], url, language, production, requestId);
}

/**
 * What a page answers when its client has had too many pages rendered for it in a short time
 * (429): a scan of items' pages is held back, pages already rendered are not (render-budget.ts).
 */
export function renderBusyPage(
  build: PageBuild,
  url: string,
  language: Language,
  production: boolean,
): RenderedDocument {
  return plainPage(build, 429, BUSY_TEXTS[language], url, language, production);
}
