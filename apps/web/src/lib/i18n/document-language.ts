import { isLanguage, pickLanguage, type Language } from '@guquan/contract/language';

/**
 * The language the server chose for this page (the `lang` of `<html>`); only when the document
 * carries none (a page not served by our server) is the rule applied again in the browser.
 */
export function documentLanguage(
  document: Document,
  location: Location,
  preferred: readonly string[],
): Language {
  const chosen = document.documentElement.lang;
  if (isLanguage(chosen)) return chosen;
  return pickLanguage(new URLSearchParams(location.search).get('lang'), preferred);
}
