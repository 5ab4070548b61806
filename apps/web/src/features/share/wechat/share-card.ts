import type { Language } from '@guquan/contract/language';
import type { ShareItems } from '@guquan/contract/share';
import { sharePageAddress, type ShareKind } from '@guquan/contract/share-paths';
import { pictureUrl, squareContent } from '@guquan/contract/share-pictures';
import { shareHead } from '../page/share-head';
import type { ShareCard } from './wechat-js-sdk';

/**
 * The card WeChat shows when this page is shared: what its link preview says (the item's name
 * with the app's, the same summary as og:description), with absolute addresses; the link is the
 * page's canonical address (its id and language), as og:url. WeChat's card has a small square
 * picture: the item's first picture cut square, as a JPEG (WebP does not show in older WeChat).
 */
export function shareCardOf<K extends ShareKind>(
  kind: K,
  item: ShareItems[K],
  facts: { language: Language; title: string; origin: string; id: string },
): ShareCard {
  const address = sharePageAddress(kind, facts.id, facts.language);
  const search = address.slice(address.indexOf('?'));
  const head = shareHead({ kind, result: { state: 'ok', item } }, facts.language, search);
  return {
    // The same as the link preview: the item's own name and the app's.
    title: head.previewTitle ?? facts.title,
    desc: head.description ?? '',
    link: `${facts.origin}${address}`,
    imgUrl: `${facts.origin}${pictureUrl(squareContent(kind, item))}`,
  };
}
