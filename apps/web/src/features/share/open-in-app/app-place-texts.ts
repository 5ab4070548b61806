import type { Language } from '@guquan/contract/language';
import { useLanguage } from '../../../lib/i18n/language-context';

/** What a link into the app adds for screen readers, after its own visible text. */
const texts = {
  'zh-CN': {
    opensInApp: '，在谷圈 App 中查看',
    commentInApp: '，在谷圈 App 中查看这条评论',
  },
  en: {
    opensInApp: ', opens in the Goods Circle app',
    commentInApp: ', see this comment in the Goods Circle app',
  },
} satisfies Record<Language, Record<string, string>>;

export type AppPlaceTexts = (typeof texts)['zh-CN'];

export function useAppPlaceTexts(): AppPlaceTexts {
  return texts[useLanguage()];
}
