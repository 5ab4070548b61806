import type { Language } from '@guquan/contract/language';
import { englishShareTexts } from './share-texts.en';
import { chineseShareTexts } from './share-texts.zh-CN';
import type { ShareTexts } from './text-shapes';

/**
 * Both languages' share texts at once, without loading anything: for tests and scripts. The pages
 * use share-texts.ts, which loads the page's language only (this module is not in their code).
 */
export function shareTexts(language: Language): ShareTexts {
  return language === 'en' ? englishShareTexts : chineseShareTexts;
}

export { fill } from './share-texts';
