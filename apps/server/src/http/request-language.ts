import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  languageOfTag,
  parseAcceptLanguage,
  pickLanguage,
  type Language,
} from '@guquan/contract/language';

/**
 * The language of a request, by the rule of PRODUCT.md ("Routes and titles"): `?lang=` when it
 * names one of ours, else Accept-Language, else Chinese. The one place the server reads it, for the
 * site's pages, the link domain's fallbacks and the operators' page alike.
 */

/** Where the language came from: `?lang=` or Accept-Language (or, naming neither, the default). */
export type LanguageSource = 'query' | 'header';

// Only `lang` is read here; pages read their own parameters. Anything odd is ignored, not refused.
const langQuerySchema = z.looseObject({
  lang: z.union([z.string(), z.array(z.string())]).optional(),
});
const acceptLanguageSchema = z.string().max(512);

/** Accept-Language's tags, most preferred first; none when the header is missing or oversized. */
function acceptedTags(request: FastifyRequest): string[] {
  const header = acceptLanguageSchema.safeParse(request.headers['accept-language']);
  return parseAcceptLanguage(header.success ? header.data : undefined);
}

/** The request's language, normalised to zh-CN or en, and whether `?lang=` or the header chose it. */
export function requestLanguage(request: FastifyRequest): {
  language: Language;
  source: LanguageSource;
} {
  const query = langQuerySchema.safeParse(request.query);
  const lang = query.success ? query.data.lang : undefined;
  const fromQuery = (Array.isArray(lang) ? lang[0] : lang)?.slice(0, 35);
  const language = pickLanguage(fromQuery, acceptedTags(request));
  const queryDecides = fromQuery !== undefined && languageOfTag(fromQuery) !== undefined;
  return { language, source: queryDecides ? 'query' : 'header' };
}

/** The language of Accept-Language alone, where `?lang=` is not the visitor's to choose. */
export function acceptedLanguage(request: FastifyRequest): Language {
  return pickLanguage(undefined, acceptedTags(request));
}
