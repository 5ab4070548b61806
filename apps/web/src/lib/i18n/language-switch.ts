import { LANGUAGES, type Language } from '@guquan/contract/language';

/** The language a page offers to switch to: the other of the two the site speaks. */
export function otherLanguage(language: Language): Language {
  return LANGUAGES.find((candidate) => candidate !== language) ?? language;
}

/**
 * The same page in `language`: the path and every other parameter kept, `?lang=` set (the rule of
 * PRODUCT.md, "Routes and titles": `?lang=` wins over Accept-Language). The server chooses the
 * language once per page load, so the address is followed as a whole page, not in the router.
 */
export function pathInLanguage(pathname: string, search: string, language: Language): string {
  const query = new URLSearchParams(search);
  query.set('lang', language);
  return `${pathname}?${query.toString()}`;
}

/** Each language's name in itself, as a switch offers it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  'zh-CN': '中文',
  en: 'English',
};
