import type { Language } from '@guquan/contract/language';
import { useLanguage } from '../../../lib/i18n/language-context';
import type { ShareFailureTexts } from './text-shapes';

/**
 * A page shows its failure texts (their shape: `FailureTextsShape`, text-shapes.ts) in its language only: they load with the failure states (the
 * 'failure' part, share-parts.tsx), and the server preloads the chunk of its page's language
 * (`shareFailureTextsSource`). all-failure-texts.ts has both at once, for tests.
 */
const TEXT_MODULES: Readonly<Record<Language, () => Promise<ShareFailureTexts>>> = {
  'zh-CN': () => import('./share-failure-texts.zh-CN').then((module) => module.chineseFailureTexts),
  en: () => import('./share-failure-texts.en').then((module) => module.englishFailureTexts),
};

export function shareFailureTextsSource(language: Language): string {
  return `src/features/share/texts/share-failure-texts.${language}.ts`;
}

const loaded: Partial<Record<Language, ShareFailureTexts>> = {};

export async function loadShareFailureTexts(language: Language): Promise<void> {
  loaded[language] ??= await TEXT_MODULES[language]();
}

/** The page's failure texts: the failure part must be loaded (it loads them). */
export function useShareFailureTexts(): ShareFailureTexts {
  const language = useLanguage();
  const texts = loaded[language];
  if (!texts) throw new Error(`The failure texts in ${language} are not loaded`);
  return texts;
}
