import type { ShareItems } from '@guquan/contract/share';
import {
  pageHasShelf,
  parseShareId,
  SHARE_FAILURES,
  shareApiPath,
  shelfApiPath,
  type ShareKind,
} from '@guquan/contract/share-paths';
import type { WorkShelf } from '@guquan/contract/share-shelf';
import type { LoadedShare } from '../share-types';

/**
 * A share page fetched by the browser itself (a navigation inside the site, or a retry): its item
 * and its shelf from the API. A chunk of its own, loaded by the first such page (share-loader.ts):
 * a page the server rendered never needs it.
 */

/**
 * Reads the shelf that ends a share's page from the API; null (no shelf) on any failure, which is
 * never worth an error of its own: the page is whole without it.
 */
export async function fetchShelf(
  kind: ShareKind,
  rawId: string | null,
  signal?: AbortSignal,
): Promise<WorkShelf | null> {
  const id = parseShareId(rawId);
  try {
    const response = await fetch(shelfApiPath(kind, id), {
      headers: { accept: 'application/json' },
      signal,
    });
    if (!response.ok) return null;
    const { workShelfSchema } = await import('@guquan/contract/share-shelf');
    return workShelfSchema.parse(await response.json());
  } catch {
    return null;
  }
}

const failureOfStatus = new Map<number, keyof typeof SHARE_FAILURES>(
  Object.entries(SHARE_FAILURES).map(([failure, status]) => [
    status,
    failure as keyof typeof SHARE_FAILURES,
  ]),
);

/** Reads a share from the API; any answer that is not one the contract allows is a failure. */
export async function fetchShare<K extends ShareKind>(
  kind: K,
  rawId: string | null,
  signal?: AbortSignal,
): Promise<LoadedShare<K>> {
  const id = parseShareId(rawId);
  if (id === undefined) return { state: 'invalid_id' };
  let response: Response;
  try {
    response = await fetch(shareApiPath(kind, id), {
      headers: { accept: 'application/json' },
      signal,
    });
  } catch {
    return { state: 'network' };
  }
  const failure = failureOfStatus.get(response.status);
  if (failure) return { state: failure };
  if (!response.ok) return { state: 'network' };
  try {
    // The schemas (and zod) load only when the browser fetches a share itself: a page the server
    // rendered never needs them.
    const { shareSchemas } = await import('@guquan/contract/share');
    const item = shareSchemas[kind].parse(await response.json()) as ShareItems[K];
    return { state: 'ok', item };
  } catch {
    return { state: 'network' };
  }
}

/**
 * The shelf of a page the browser loads, asked for only when the page has one (pageHasShelf): a
 * goods' page always does, so its shelf is fetched beside the item; a cabinet's or a note's only
 * when it cannot be shown, which is known once the item's answer is in.
 */
export function shelfOf<K extends ShareKind>(
  kind: K,
  result: Promise<LoadedShare<K>>,
  fetchIt: () => Promise<WorkShelf | null>,
): Promise<WorkShelf | null> {
  if (pageHasShelf(kind, 'ok')) return fetchIt();
  return result.then((loaded) => (pageHasShelf(kind, loaded.state) ? fetchIt() : null));
}
