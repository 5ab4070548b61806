import type { Language } from '@guquan/contract/language';
import type { ShareItems } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';
import { pictureUrl, squareContent } from '@guquan/contract/share-pictures';
import { shareHead } from '../share-head';
import type { ShareCard } from './wechat-js-sdk';

/**
 * The card WeChat shows when this page is shared: what its link preview says (the page's title,
 * the same summary as og:description), with absolute addresses; the link is the page's canonical
 * address (its id and language), as og:url. WeChat's card has a small square picture: the item's
 * first picture cut square, as a JPEG (WebP does not show in older WeChat).
 */
export function shareCardOf<K extends ShareKind>(
  kind: K,
  item: ShareItems[K],
  facts: { language: Language; title: string; origin: string; pathname: string; id: string },
): ShareCard {
  const query = new URLSearchParams({ id: facts.id, lang: facts.language });
  const head = shareHead({ kind, result: { state: 'ok', item } }, facts.language, `?${query}`);
  return {
    title: facts.title,
    desc: head.description ?? '',
    link: `${facts.origin}${facts.pathname}?${query.toString()}`,
    imgUrl: `${facts.origin}${pictureUrl(squareContent(kind, item))}`,
  };
}
