/**
 * The language rule of PRODUCT.md ("Routes and titles"), shared by the server (which decides the
 * language once per page load) and the web app (which keeps it).
 */
export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

/** The language a single tag stands for, or undefined when it is neither Chinese nor English. */
export function languageOfTag(tag: string): Language | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/, 1)[0];
  if (primary === 'zh') return 'zh-CN';
  if (primary === 'en') return 'en';
  return undefined;
}

/**
 * `?lang=` wins when it names a language we have; otherwise the first preferred language that is
 * Chinese or English decides; anything else gives Chinese.
 */
export function pickLanguage(
  queryLang: string | null | undefined,
  preferred: readonly string[],
): Language {
  const fromQuery = queryLang ? languageOfTag(queryLang) : undefined;
  if (fromQuery) return fromQuery;
  for (const tag of preferred) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

const MAX_ACCEPT_LANGUAGE_ENTRIES = 32;

/**
 * The tags of an Accept-Language header, most preferred first (by q-value, then by position).
 * Tags with q=0 are refused by the client and dropped; malformed entries are ignored.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: { tag: string; q: number; index: number }[] = [];
  const parts = header.split(',').slice(0, MAX_ACCEPT_LANGUAGE_ENTRIES);
  parts.forEach((part, index) => {
    const [rawTag, ...params] = part.split(';');
    const tag = rawTag?.trim() ?? '';
    if (!/^(?:[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*|\*)$/.test(tag)) return;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(param);
      if (match?.[1] !== undefined) q = Number(match[1]);
    }
    if (q > 0) entries.push({ tag, q, index });
  });
  return entries.sort((a, b) => b.q - a.q || a.index - b.index).map((entry) => entry.tag);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
