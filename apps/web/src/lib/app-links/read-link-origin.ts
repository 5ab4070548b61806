import { LINK_ORIGIN_META_NAME } from '@guquan/contract/link-origin-meta';

/**
 * Read without React, by the share pages' start-up script too (link-origin.tsx says where it comes
 * from).
 */
/** The link origin the server wrote into the page, if it is an http(s) origin. */
export function readLinkOrigin(doc: Pick<Document, 'querySelector'>): string {
  const content = doc
    .querySelector(`meta[name="${LINK_ORIGIN_META_NAME}"]`)
    ?.getAttribute('content');
  if (!content) return '';
  try {
    const url = new URL(content);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : '';
  } catch {
    return '';
  }
}
