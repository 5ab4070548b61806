import { data, type LoaderFunctionArgs } from 'react-router';
import type { ShareItems, ShareReader, ShareResult } from '@guquan/contract/share';
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

function readerOf(context: unknown): ShareReader | undefined {
  const shares = (context as { shares?: unknown } | undefined)?.shares;
  return typeof (shares as ShareReader | undefined)?.read === 'function'
    ? (shares as ShareReader)
    : undefined;
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
      ...(signal ? { signal } : {}),
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

/** The loader of a share page: `?id=` only (anything else in the query is ignored). */
export function shareLoader<K extends ShareKind>(kind: K) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const rawId = new URL(request.url).searchParams.get('id');
    const reader = readerOf(context);
    if (typeof document === 'undefined' && !reader) {
      // On a server that has no data (none is configured): nothing to show.
      return data({ kind, result: { state: 'not_found' } } satisfies ShareLoaderData<K>, {
        status: SHARE_FAILURES.not_found,
      });
    }
    if (!reader) {
      // In the browser: answer at once; the page waits for the item behind its skeleton.
      return { kind, result: fetchShare(kind, rawId, request.signal) } satisfies ShareLoaderData<K>;
    }
    const result = await reader.read(kind, rawId);
    const loaded: ShareLoaderData<K> = { kind, result };
    return result.state === 'ok' ? loaded : data(loaded, { status: SHARE_FAILURES[result.state] });
  };
}
