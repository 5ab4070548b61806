import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { escapeHtml, fillTemplate } from './html-document.ts';
import { pageAssets } from './page-assets.ts';
import { pageContentSecurityPolicy } from './page-csp.ts';
import type { RenderedDocument } from './page-document.ts';
import type { WebBuild } from './web-build.ts';

const TEXTS: Readonly<
  Record<Language, { title: string; message: string; retry: string; reference: string }>
> = {
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

/**
 * What a page answers when rendering it failed: a plain HTML page (500) in the request's language
 * with a link that loads the same address again. It names nothing internal, carries no script
 * (the app could not render it either) and only the site's base styles.
 */
export function renderFailurePage(
  build: Pick<WebBuild, 'template' | 'manifest' | 'entryStyles' | 'styles'>,
  url: string,
  language: Language,
  production: boolean,
  /** The request's id, shown so that a visitor's report finds the log lines. */
  requestId?: string,
): RenderedDocument {
  const text = TEXTS[language];
  const html = fillTemplate(build.template, {
    language,
    title: text.title,
    head:
      '<meta name="robots" content="noindex, nofollow">' +
      pageAssets(build, [], `${BASE_PATH}/`).head,
    appHtml: `<main role="alert"><h1>${escapeHtml(text.title)}</h1><p>${escapeHtml(text.message)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(text.retry)}</a></p>${requestId === undefined ? '' : `<p><small>${escapeHtml(text.reference)}: <code>${escapeHtml(requestId)}</code></small></p>`}</main>`,
    scripts: '',
  });
  return { status: 500, html, csp: pageContentSecurityPolicy(html, production) };
}
