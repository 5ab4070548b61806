import type { Language } from '@guquan/contract/language';
import type { ShareGuideTexts } from './text-shapes';
import { englishShareGuideTexts } from './share-guide-texts.en';
import { chineseShareGuideTexts } from './share-guide-texts.zh-CN';

/**
 * Both languages' guide texts at once, without loading anything: for tests and scripts. The pages
 * load the page's language only, with the guide (share-guide-on-demand.tsx).
 */
export function shareGuideTexts(language: Language): ShareGuideTexts {
  return language === 'en' ? englishShareGuideTexts : chineseShareGuideTexts;
}
