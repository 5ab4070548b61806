import type { Language } from '@guquan/contract/language';

/**
 * A text that depends on a count, one form per plural category the language has: English needs
 * `one` ("1 like") and `other` ("2 likes"); Chinese has no plural forms, so `other` alone. `{n}`
 * stands for the count as shown.
 */
export type PluralTexts = Readonly<Partial<Record<Intl.LDMLPluralRule, string>>> & {
  readonly other: string;
};

const rules = new Map<Language, Intl.PluralRules>();

function rulesFor(language: Language): Intl.PluralRules {
  let found = rules.get(language);
  if (!found) {
    found = new Intl.PluralRules(language);
    rules.set(language, found);
  }
  return found;
}

/**
 * The form of `texts` for `count` by the language's own plural rules (Intl.PluralRules, the same
 * CLDR rules in Node and in every browser, so the server's text and the client's match), with
 * `{n}` replaced by `shown` (the count as the page writes it, e.g. "1.2k"; the count itself by
 * default).
 */
export function pluralText(
  language: Language,
  count: number,
  texts: PluralTexts,
  shown: string = String(count),
): string {
  const form = texts[rulesFor(language).select(count)] ?? texts.other;
  return form.replaceAll('{n}', shown);
}
