import type { Language } from '@guquan/contract/language';
import { useLanguage } from './language-context';

/** The texts of the shell itself (pages carry their own content). */
const texts = {
  'zh-CN': {
    underConstruction: '此页面正在建设中，很快就会上线。',
    toWebsite: '前往谷圈官网',
    notFoundHeading: '页面不存在',
    notFoundBody: '你访问的页面可能已被移动或删除，请检查链接是否完整。',
    errorHeading: '页面加载失败',
    errorBody: '可能是网络不稳定，或网站刚刚更新。请检查网络后重试。',
    retry: '重试',
  },
  en: {
    underConstruction: 'This page is being built and will be here soon.',
    toWebsite: 'Go to the Goods Circle website',
    notFoundHeading: 'Page not found',
    notFoundBody: 'The page you asked for may have moved or been removed. Please check the link.',
    errorHeading: 'The page could not be loaded',
    errorBody:
      'The network may be unstable, or the site has just been updated. Check your connection and try again.',
    retry: 'Try again',
  },
} as const satisfies Record<Language, Record<string, string>>;

export type ShellTexts = (typeof texts)[Language];

export function shellTexts(language: Language): ShellTexts {
  return texts[language];
}

export function useShellTexts(): ShellTexts {
  return shellTexts(useLanguage());
}
