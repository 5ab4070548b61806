import { Suspense, useState, type ReactNode } from 'react';
import { Await, useLoaderData, useSearchParams } from 'react-router';
import type { ShareItems, ShareKind } from '@guquan/contract/share';
import { PageColumn } from '../../../components/page-column/page-column';
import { OpenAppBar } from '../open-app-bar/open-app-bar';
import { AppPromptProvider } from '../open-in-app/app-prompt';
import { ShareFailureView } from '../share-failure/share-failure-view';
import { fetchShare, type LoadedShare, type ShareLoaderData } from '../share-loader';
import { ShareSkeleton } from '../share-skeleton/share-skeleton';

/**
 * The frame of every share page: the phone column, the app bar, and the item — the server's
 * (already there), or, after a navigation in the browser, the skeleton until it arrives. A retry
 * after a network failure fetches again right here; nothing else reloads.
 */
export function SharePage<K extends ShareKind>({
  kind,
  children,
}: {
  kind: K;
  children: (item: ShareItems[K]) => ReactNode;
}) {
  const data = useLoaderData<ShareLoaderData<K>>();
  const [searchParams] = useSearchParams();
  const [retried, setRetried] = useState<{
    of: ShareLoaderData<K>['result'];
    result: Promise<LoadedShare<K>>;
  } | null>(null);
  // A retry belongs to the loader data it retried: a new navigation starts from its own.
  const result = retried?.of === data.result ? retried.result : data.result;

  function retry() {
    setRetried({ of: data.result, result: fetchShare(kind, searchParams.get('id')) });
  }

  const failure = (state: Exclude<LoadedShare<K>['state'], 'ok'>) => (
    <ShareFailureView kind={kind} state={state} onRetry={retry} />
  );

  return (
    <PageColumn>
      <AppPromptProvider kind={kind}>
        <OpenAppBar />
        {/* Keyed by the item: another item of the same page shows the skeleton, not the last one. */}
        <Suspense key={searchParams.get('id') ?? ''} fallback={<ShareSkeleton kind={kind} />}>
          <Await resolve={result} errorElement={failure('network')}>
            {(loaded: LoadedShare<K>) =>
              loaded.state === 'ok' ? children(loaded.item) : failure(loaded.state)
            }
          </Await>
        </Suspense>
      </AppPromptProvider>
    </PageColumn>
  );
}
