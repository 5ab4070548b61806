import type { Language } from '@guquan/contract/language';
import { useLanguage } from '../../../lib/i18n/language-context';
import type { ShareFailureState } from '../share-texts';

/**
 * What a page that cannot show its item says beyond its heading (share-texts.ts): why, in a
 * sentence a visitor reads without knowing HTTP, and where to go next. Both languages.
 */
const texts = {
  'zh-CN': {
    why: {
      private: '发布它的同好把它设为了仅自己可见。如果这是你发布的，打开谷圈 App 就能看到。',
      removed: '它已被发布者或平台删除，这个链接不会再打开它了。下面还有很多同好分享的谷子。',
      not_found:
        '没有找到它：链接可能只复制了一部分，或者内容已经不在了。可以请分享给你的同好再发一次。',
      invalid_id:
        '这个链接少了一段或多了一段，打不开分享的内容。请分享给你的同好在谷圈 App 里重新点「分享」。',
      network: '网络似乎不太稳定，请检查网络后重试。',
    },
    download: '下载谷圈 App',
    /** The HTTP status, in small print, for whoever reports the problem. */
    code: '错误代码 {code}',
  },
  en: {
    why: {
      private:
        'The fan who posted it keeps it to themselves. If it is yours, open the Goods Circle app to see it.',
      removed:
        'Whoever posted it, or the platform, took it down: this link will not open it again. There is plenty more below.',
      not_found:
        'We could not find it: the link may have been copied only in part, or what it showed is gone. Ask whoever shared it to send it again.',
      invalid_id:
        'This link is missing a part, or has one too many, so it cannot open what was shared. Ask whoever shared it to tap "Share" in the Goods Circle app again.',
      network: 'The network seems unstable. Check your connection and try again.',
    },
    download: 'Download the Goods Circle app',
    code: 'Error code {code}',
  },
} as const satisfies Record<
  Language,
  { why: Record<ShareFailureState, string>; download: string; code: string }
>;

export type ShareFailureTexts = (typeof texts)[Language];

export function shareFailureTexts(language: Language): ShareFailureTexts {
  return texts[language];
}

export function useShareFailureTexts(): ShareFailureTexts {
  return shareFailureTexts(useLanguage());
}
