import type { Language } from '@guquan/contract/language';
import type { ShareFailureTexts } from './text-shapes';
import { englishFailureTexts } from './share-failure-texts.en';
import { chineseFailureTexts } from './share-failure-texts.zh-CN';

/**
 * Both languages' failure texts at once, without loading anything: for tests. The pages load
 * their language's only (share-failure-texts.ts).
 */
export function shareFailureTexts(language: Language): ShareFailureTexts {
  return language === 'en' ? englishFailureTexts : chineseFailureTexts;
}
