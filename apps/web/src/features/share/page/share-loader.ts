import { data, type LoaderFunctionArgs } from 'react-router';
import type { ShareResult } from '@guquan/contract/share';
import { SHARE_FAILURES, type ShareKind } from '@guquan/contract/share-paths';
import type { WorkShelf } from '@guquan/contract/share-shelf';
import { fetchWithPart, loadSharePart } from './share-parts';
import type { ShareLoaderContext, ShareLoaderData } from '../share-types';

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
 * The loader of a share page. On the server, the item the server read for this page (it parsed
 * the id and read it once; without one, the page shows it as not found). In the browser, `?id=`
 * only (anything else in the query is ignored), fetched from the API.
 */
export function shareLoader<K extends ShareKind>(kind: K) {
  return ({ request, context }: LoaderFunctionArgs) => {
    if (typeof document !== 'undefined') {
      // In the browser: answer at once; the page waits for the item behind its skeleton. The
      // item comes with the part that shows it (share-parts.tsx): its view, fetched beside the
      // item (most items are shown), or the failure states.
      const rawId = new URL(request.url).searchParams.get('id');
      void loadSharePart(kind).catch(() => undefined);
      const result = fetchWithPart(kind, rawId, request.signal);
      // Offline, the fetching code itself may not come: no shelf, as when the API cannot be
      // reached.
      const fetching = import('./share-fetch');
      return {
        kind,
        result,
        shelf: fetching.then(
          ({ shelfOf, fetchShelf }) =>
            shelfOf(kind, result, () => fetchShelf(kind, rawId, request.signal)),
          () => null,
        ),
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
