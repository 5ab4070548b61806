import { sharePagePath } from '@guquan/contract/share-paths';

/**
 * Paths from a share page to another page of the site that keep the visitor's `?lang=` (the
 * page's only other query the site reads), e.g. `/AppShare/goodsShare?id=…&lang=en`.
 */
export function keepLanguage(to: string, currentSearch: string): string {
  const lang = new URLSearchParams(currentSearch).get('lang');
  if (!lang) return to;
  const hashAt = to.indexOf('#');
  const path = hashAt === -1 ? to : to.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : to.slice(hashAt);
  const separator = path.includes('?') ? '&' : '?';
  return `${path}${separator}lang=${encodeURIComponent(lang)}${hash}`;
}

/** The router path of a goods share page. */
export function goodsSharePath(id: string, currentSearch: string): string {
  return keepLanguage(sharePagePath('goods', id), currentSearch);
}

export const WEBSITE_PATH = '/website';
