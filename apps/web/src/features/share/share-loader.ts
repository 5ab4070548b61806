import { data, type LoaderFunctionArgs } from 'react-router';
import type { SharePageData } from '@guquan/contract/page-render';
import type { ShareItems, ShareResult } from '@guquan/contract/share';
import {
  parseShareId,
  SHARE_FAILURES,
  shareApiPath,
  type ShareKind,
} from '@guquan/contract/share-paths';

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
}

/** What the server read for the page it renders (entry-server puts it in the loader's context). */
export interface ShareLoaderContext {
  share?: SharePageData;
}

/** The server's item for this kind of page, if it read one. */
function serverShareOf<K extends ShareKind>(kind: K, context: unknown): ShareResult<K> | undefined {
  const share = (context as ShareLoaderContext | undefined)?.share;
  if (share === undefined) return undefined;
  // The server renders a page for exactly what it read: another kind is a bug, never shown.
  if (share.kind !== kind) throw new Error(`A ${share.kind} read for a ${kind} page`);
  return share.result as ShareResult<K>;
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
 * The loader of a share page. On the server, the item the server read for this page (it parsed
 * the id and read it once; without one, the page shows it as not found). In the browser, `?id=`
 * only (anything else in the query is ignored), fetched from the API.
 */
export function shareLoader<K extends ShareKind>(kind: K) {
  return ({ request, context }: LoaderFunctionArgs) => {
    if (typeof document !== 'undefined') {
      // In the browser: answer at once; the page waits for the item behind its skeleton.
      const rawId = new URL(request.url).searchParams.get('id');
      return { kind, result: fetchShare(kind, rawId, request.signal) } satisfies ShareLoaderData<K>;
    }
    const result: ShareResult<K> = serverShareOf(kind, context) ?? { state: 'not_found' };
    const loaded: ShareLoaderData<K> = { kind, result };
    return result.state === 'ok' ? loaded : data(loaded, { status: SHARE_FAILURES[result.state] });
  };
}
