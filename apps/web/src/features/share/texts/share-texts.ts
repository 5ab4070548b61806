import { LANGUAGES, type Language } from '@guquan/contract/language';
import { loadWithRecovery } from '../../../lib/chunks/page-load-recovery';
import { documentLanguage } from '../../../lib/i18n/document-language';
import { useLanguage } from '../../../lib/i18n/language-context';
import type { ShareTexts } from './text-shapes';

/**
 * Every text of the share pages, one module per language (share-texts.<language>.ts), Chinese
 * giving the shape (`ShareTexts`, text-shapes.ts); all-share-texts.ts has both at once, for tests. A page carries its own
 * language only: the route's `prepare` loads it before the page renders (`prepareShareTexts`),
 * and the server preloads its chunk with the page (`shareTextsSource`); the server, which renders
 * both languages, loads both.
 */
const TEXT_MODULES: Readonly<Record<Language, () => Promise<ShareTexts>>> = {
  'zh-CN': () => import('./share-texts.zh-CN').then((module) => module.chineseShareTexts),
  en: () => import('./share-texts.en').then((module) => module.englishShareTexts),
};

/** The module of a language's texts, as the build manifest names it (the server preloads it). */
export function shareTextsSource(language: Language): string {
  return `src/features/share/texts/share-texts.${language}.ts`;
}

const loaded: Partial<Record<Language, ShareTexts>> = {};

/** Loads a language's texts (once): a share page renders only once its language's are here. */
export async function loadShareTexts(language: Language): Promise<void> {
  loaded[language] ??= await loadWithRecovery(TEXT_MODULES[language]);
}

/**
 * The languages a share page's texts are loaded in: in the browser, the page's (the one the
 * server chose, fixed for the page's life); on the server, which renders every language, all.
 */
export function pageLanguages(): readonly Language[] {
  return typeof document === 'undefined'
    ? LANGUAGES
    : [documentLanguage(document, window.location, navigator.languages)];
}

/** Before a share page renders: the texts of its language (pageLanguages). */
export async function prepareShareTexts(): Promise<void> {
  await Promise.all(pageLanguages().map(loadShareTexts));
}

/** A loaded language's texts: loadShareTexts must have run (a share route's `prepare` did). */
export function loadedShareTexts(language: Language): ShareTexts {
  const texts = loaded[language];
  if (!texts) throw new Error(`The share texts in ${language} are not loaded (loadShareTexts)`);
  return texts;
}

export function useShareTexts(): ShareTexts {
  return loadedShareTexts(useLanguage());
}

/** Fills `{name}` placeholders: `fill('第 {n} 张', { n: 2 })`. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) =>
    key in values ? String(values[key]) : match,
  );
}
