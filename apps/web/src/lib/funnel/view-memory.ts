import { parseShareId, type ShareKind } from '@guquan/contract/share-paths';

/**
 * Which items this browser tab has already counted a view of (the share funnel's "one view per
 * item per visit", docs/decisions/0018-share-funnel-and-operators-listener.md). A visit is the
 * tab's session: the return from the link domain (the app is missing), from a store, and a reload
 * land in the same tab and count no new view. Kept in the tab's own sessionStorage, under one key
 * per item (`guquan.share.viewed:<kind>:<public id>` = `1`), never sent anywhere: the beacon
 * carries what it always did. Where storage is refused (some private modes), the page's own memory
 * stands in, so a view still counts at most once per page.
 */
export const VIEWED_KEY_PREFIX = 'guquan.share.viewed:';

const countedInMemory = new Set<string>();

function keyOf(kind: ShareKind, id: string): string {
  return `${VIEWED_KEY_PREFIX}${kind}:${id}`;
}

/**
 * Marks the item's view as counted in this tab; true if it was not yet (the caller counts it),
 * false if this tab counted it already or the id is no public id (such a view is never counted).
 */
export function takeFirstView(kind: ShareKind, id: string | null): boolean {
  const publicId = parseShareId(id);
  if (!publicId) return false;
  const key = keyOf(kind, publicId);
  if (countedInMemory.has(key)) return false;
  countedInMemory.add(key);
  try {
    if (sessionStorage.getItem(key) === '1') return false;
    sessionStorage.setItem(key, '1');
  } catch {
    // Storage refused: the page's memory above is all there is.
  }
  return true;
}

/** For tests: forget every counted view. */
export function forgetViewsForTests(): void {
  countedInMemory.clear();
  try {
    for (const key of Object.keys(sessionStorage))
      if (key.startsWith(VIEWED_KEY_PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // nothing to forget
  }
}
