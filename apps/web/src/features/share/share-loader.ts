import { data, type LoaderFunctionArgs } from 'react-router';
import type { SharePageData } from '@guquan/contract/page-render';
import type { ShareItems, ShareResult } from '@guquan/contract/share';
import {
  pageHasShelf,
  parseShareId,
  SHARE_FAILURES,
  shareApiPath,
  shelfApiPath,
  type ShareKind,
} from '@guquan/contract/share-paths';
import type { WorkShelf } from '@guquan/contract/share-shelf';

/** A share as the page has it: the server's answer, or a network failure the visitor can retry. */
export type LoadedShare<K extends ShareKind> = ShareResult<K> | { readonly state: 'network' };

/**
 * A share page's loader data. On the server `result` is already there (the page is rendered with
 * it and its status); in the browser it is a promise, so the page shows its skeleton at once and
 * the item when it comes.
 */
export interface ShareLoaderData<K extends ShareKind> {
  kind: K;
  result: LoadedShare<K> | Promise<LoadedShare<K>>;
  /**
   * The "more from this work" shelf that ends the page, or null when there is none to show (the
   * server sent none, or the browser could not fetch it: the page ends without it). In the browser
   * a promise, fetched beside the item.
   */
  shelf: WorkShelf | null | Promise<WorkShelf | null>;
}

/** What the server read for the page it renders (entry-server puts it in the loader's context). */
export interface ShareLoaderContext {
  share?: SharePageData;
}

/** The server's item (and shelf) for this kind of page, if it read one. */
function serverShareOf<K extends ShareKind>(
  kind: K,
  context: unknown,
): { result: ShareResult<K>; shelf: WorkShelf | null } | undefined {
  const share = (context as ShareLoaderContext | undefined)?.share;
  if (share === undefined) return undefined;
  // The server renders a page for exactly what it read: another kind is a bug, never shown.
  if (share.kind !== kind) throw new Error(`A ${share.kind} read for a ${kind} page`);
  return { result: share.result as ShareResult<K>, shelf: share.shelf ?? null };
}

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
function shelfOf<K extends ShareKind>(
  kind: K,
  result: Promise<LoadedShare<K>>,
  fetchIt: () => Promise<WorkShelf | null>,
): Promise<WorkShelf | null> {
  if (pageHasShelf(kind, 'ok')) return fetchIt();
  return result.then((loaded) => (pageHasShelf(kind, loaded.state) ? fetchIt() : null));
}

/**
 * The loader of a share page. On the server, the item the server read for this page (it parsed
 * the id and read it once; without one, the page shows it as not found). In the browser, `?id=`
 * only (anything else in the query is ignored), fetched from the API.
 */
export function shareLoader<K extends ShareKind>(kind: K) {
  return ({ request, context }: LoaderFunctionArgs) => {
    if (typeof document !== 'undefined') {
      // In the browser: answer at once; the page waits for the item behind its skeleton.
      const rawId = new URL(request.url).searchParams.get('id');
      const result = fetchShare(kind, rawId, request.signal);
      return {
        kind,
        result,
        shelf: shelfOf(kind, result, () => fetchShelf(kind, rawId, request.signal)),
      } satisfies ShareLoaderData<K>;
    }
    const { result, shelf } = serverShareOf(kind, context) ?? {
      result: { state: 'not_found' } as const,
      shelf: null,
    };
    const loaded: ShareLoaderData<K> = { kind, result, shelf };
    return result.state === 'ok' ? loaded : data(loaded, { status: SHARE_FAILURES[result.state] });
  };
}
