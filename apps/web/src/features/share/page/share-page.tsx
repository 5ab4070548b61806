import { Suspense, use, useEffect, useState, type ReactNode } from 'react';
import { useLoaderData, useLocation } from 'react-router';
import type { ShareItems } from '@guquan/contract/share';
import { pageHasShelf, type ShareKind } from '@guquan/contract/share-paths';
import { shareTitle } from '@guquan/contract/share-titles';
import { PageColumn } from '../../../components/page-column/page-column';
import { PageFooter } from '../../../components/page-footer/page-footer';
import { reportViewSoon } from '../../../lib/funnel/report-soon';
import { OpenAppBar } from '../open-in-app/open-app-bar';
import { AppPromptProvider, useAppPrompt } from '../open-in-app/app-prompt';
import { PosterAction } from '../poster/poster-action';
import { fetchWithPart, ShareFailurePart } from './share-parts';
import type { LoadedShare, ShareLoaderData } from '../share-types';
import { WorkShelf } from './work-shelf';
import { LaterSkeleton, preloadAfterStart } from './drawn-later';

/**
 * The item once it is there: at once when it already is (server, hydration), else suspending
 * until the promise settles. What React Router's <Await> does, with React's own `use`: <Await>
 * would add to the router code every page loads at start-up, `use` is already in React.
 */
function Resolved<K extends ShareKind>({
  result,
  children,
}: {
  result: LoadedShare<K> | Promise<LoadedShare<K>>;
  children: (loaded: LoadedShare<K>) => ReactNode;
}) {
  return children(result instanceof Promise ? use(result) : result);
}

/**
 * Tells the app prompt the item on screen (renders nothing): its title, for the share text a
 * store-bound tap copies, and the item, for WeChat's card.
 */
function PromptItem<K extends ShareKind>({
  kind,
  id,
  item,
}: {
  kind: K;
  id: string;
  item: ShareItems[K];
}) {
  const { setTitle, setShared } = useAppPrompt();
  const title = shareTitle(kind, item);
  useEffect(() => {
    setTitle(title);
  }, [setTitle, title]);
  useEffect(() => {
    setShared({ kind, id, item });
  }, [setShared, kind, id, item]);
  return null;
}

/**
 * Counts one view of the item shown (the share funnel, docs/decisions/0018-share-funnel-and-operators-listener.md), once it is on
 * screen, and once per item in this tab (view-memory.ts): coming back from the link domain or a
 * store, or reloading, is the same visit.
 */
function ViewReport({ kind, id }: { kind: ShareKind; id: string | null }) {
  useEffect(() => {
    reportViewSoon(kind, id);
  }, [kind, id]);
  // Where the start-up script, before React, finds the item viewed (start/share-start.ts): the
  // same count, once per item (view-memory.ts), whichever reports first.
  return <template data-share-view={id ?? ''} />;
}

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
  const id = new URLSearchParams(useLocation().search).get('id');
  const [retried, setRetried] = useState<{
    of: ShareLoaderData<K>['result'];
    result: Promise<LoadedShare<K>>;
  } | null>(null);
  // A retry belongs to the loader data it retried: a new navigation starts from its own.
  const result = retried?.of === data.result ? retried.result : data.result;

  // Once hydrated: what fetching another item shows meanwhile.
  useEffect(preloadAfterStart, []);

  function retry() {
    setRetried({ of: data.result, result: fetchWithPart(kind, id) });
  }

  const failure = (state: Exclude<LoadedShare<K>['state'], 'ok'>) => (
    <>
      <ShareFailurePart kind={kind} state={state} onRetry={retry} />
      {/* After a network failure the shelf most likely failed too: the retry comes first. */}
      {state === 'network' ? null : <WorkShelf shelf={data.shelf} />}
    </>
  );

  return (
    <PageColumn wide>
      <AppPromptProvider kind={kind}>
        {/* Known at once on the server and at hydration: a failure promises no return to it. */}
        <OpenAppBar noItem={!(result instanceof Promise) && result.state !== 'ok'} />
        {/* Keyed by the item: another item of the same page shows the skeleton, not the last one. */}
        <Suspense key={id ?? ''} fallback={<LaterSkeleton kind={kind} />}>
          <Resolved result={result}>
            {(loaded) =>
              loaded.state === 'ok' ? (
                <>
                  {children(loaded.item)}
                  <PromptItem kind={kind} id={id ?? ''} item={loaded.item} />
                  <PosterAction kind={kind} id={loaded.item.id} />
                  <ViewReport kind={kind} id={id} />
                  {/* The shelf ends a goods' page; a cabinet lists its own goods, a note has none. */}
                  {pageHasShelf(kind, 'ok') ? <WorkShelf shelf={data.shelf} /> : null}
                </>
              ) : (
                failure(loaded.state)
              )
            }
          </Resolved>
        </Suspense>
      </AppPromptProvider>
      <PageFooter />
    </PageColumn>
  );
}
