import type { Language } from '@guquan/contract/language';
import { useLanguage } from '../../../lib/i18n/language-context';

/** The "more from this work" shelf's words, in both languages. */
const texts = {
  'zh-CN': {
    /** The work's name is the platform's, shown as written. */
    ofWork: '更多「{work}」的谷子',
    newest: '看看大家最近分享的谷子',
  },
  en: {
    ofWork: 'More from {work}',
    newest: 'Goods fans shared lately',
  },
} as const satisfies Record<Language, Record<string, string>>;

export type WorkShelfTexts = (typeof texts)[Language];

export function workShelfTexts(language: Language): WorkShelfTexts {
  return texts[language];
}

export function useWorkShelfTexts(): WorkShelfTexts {
  return workShelfTexts(useLanguage());
}
