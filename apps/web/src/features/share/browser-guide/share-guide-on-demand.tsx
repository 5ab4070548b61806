import type { Language } from '@guquan/contract/language';
import { onDemand, type OnDemand } from '../../../lib/chunks/on-demand';
import { useLanguage } from '../../../lib/i18n/language-context';
import type { ShareGuideProps } from './share-guide';

/** Where the guide's code cannot be had, the guide closes again. */
function close(props: ShareGuideProps): void {
  props.onClose();
}

/** The guide in each language: its code and that language's texts (share-guide.<language>.tsx). */
const GUIDES: Readonly<Record<Language, OnDemand<ShareGuideProps>>> = {
  'zh-CN': onDemand(
    () => import('./share-guide.zh-CN').then((module) => module.ChineseShareGuide),
    close,
  ),
  en: onDemand(() => import('./share-guide.en').then((module) => module.EnglishShareGuide), close),
};

/**
 * The share pages' "open in the browser" guide, loaded with its texts in the page's language when
 * it first opens: only a tap inside WeChat, QQ or Weibo needs either, so the share pages start
 * with neither.
 */
export function ShareOpenInBrowserGuide(props: ShareGuideProps) {
  const { Component } = GUIDES[useLanguage()];
  return props.open ? <Component {...props} /> : null;
}
