import type { ComponentProps, ReactNode } from 'react';
import type { Language } from '@guquan/contract/language';
import { SHARE_KINDS, type ShareKind } from '@guquan/contract/share-paths';
import buttons from '../../../components/button.module.css';
import { StatusView } from '../../../components/status-view/status-view';
import { loadWithRecovery } from '../../../lib/chunks/page-load-recovery';
import { useShellTexts } from '../../../lib/i18n/shell-texts';
import type { ShareFailureView } from './share-failure-view';
import { loadShareFailureTexts, shareFailureTextsSource } from '../texts/share-failure-texts';
import { pageLanguages } from '../texts/share-texts';
import type { LoadedShare, SharePart, ShareView } from '../share-types';

/**
 * The parts of a share page that only some pages show, each a chunk of its own: the view of each
 * kind's item, and the failure states. A goods page does not carry the cabinet's and the note's
 * code, a shown item not the failure's, a failure not the views'.
 *
 * A part is always here before the page renders it, never hydrated later (a part hydrated after
 * the page blinks out: drawn-later.ts): the server preloads the parts of the page it
 * sends (`sharePartsSources`, entry-server.tsx) and the route's `prepare` awaits them before
 * hydration; a page the browser fetches itself waits for its part with its item (`fetchWithPart`).
 * Their types (`SharePart`, `ShareView`) are in share-types.ts.
 */
type ShareViews = { [K in ShareKind]: ShareView<K> };
type FailureView = typeof ShareFailureView;

interface Parts extends ShareViews {
  failure: FailureView;
}

const PART_MODULES: { [P in SharePart]: () => Promise<Parts[P]> } = {
  goods: () =>
    import('../views/goods-view').then(({ GoodsView }) => (goods) => <GoodsView goods={goods} />),
  cabinet: () =>
    import('../views/cabinet-view').then(({ CabinetView }) => (cabinet) => (
      <CabinetView cabinet={cabinet} />
    )),
  note: () =>
    import('../views/note-view').then(({ NoteView }) => (note) => <NoteView note={note} />),
  // The failure states come with their texts in the page's language (all, on the server).
  failure: async () => {
    const [{ ShareFailureView }] = await Promise.all([
      import('./share-failure-view'),
      ...pageLanguages().map(loadShareFailureTexts),
    ]);
    return ShareFailureView;
  },
};

/** Each part's module, as the build manifest names it (the server preloads a page's parts). */
const PART_SOURCES: Readonly<Record<SharePart, string>> = {
  goods: 'src/features/share/views/goods-view.tsx',
  cabinet: 'src/features/share/views/cabinet-view.tsx',
  note: 'src/features/share/views/note-view.tsx',
  failure: 'src/features/share/page/share-failure-view.tsx',
};

export const ALL_SHARE_PARTS: readonly SharePart[] = [...SHARE_KINDS, 'failure'];

const loaded: Partial<Parts> = {};
const loading = new Map<SharePart, Promise<void>>();

/**
 * Loads a part (once). Before the page renders (its route's `prepare`) through the page-load
 * recovery, as the page's own code: a chunk a new deployment removed reloads the page once.
 */
export function loadSharePart(part: SharePart, recover = false): Promise<void> {
  const load = async () => {
    const module = PART_MODULES[part] as () => Promise<Parts[SharePart]>;
    (loaded as Record<SharePart, Parts[SharePart]>)[part] = await (recover
      ? loadWithRecovery(module)
      : module());
  };
  let pending = loading.get(part);
  if (!pending) {
    pending = load().catch((error: unknown) => {
      loading.delete(part); // a later page tries again
      throw error;
    });
    loading.set(part, pending);
  }
  return pending;
}

/** The part a share page shows for its outcome: the item's view, or the failure. */
export function partOf(kind: ShareKind, loadedShare: LoadedShare<ShareKind>): SharePart {
  return loadedShare.state === 'ok' ? kind : 'failure';
}

/**
 * The part the server's page shows, from its loader data (`ShareLoaderData`: an item's outcome
 * there is never a promise), or none where it is not a share page's.
 */
export function serverPartOf(kind: ShareKind, loaderData: unknown): SharePart | undefined {
  const result = (loaderData as { result?: unknown } | undefined)?.result;
  if (typeof result !== 'object' || result === null || !('state' in result)) return undefined;
  return result.state === 'ok' ? kind : 'failure';
}

/**
 * The modules of the part a share page of `kind` shows in `language`, by its loader data (the
 * server preloads them with the page); none where the loader data names no outcome.
 */
export function sharePartsSources(
  kind: ShareKind,
  loaderData: unknown,
  language: Language,
): string[] {
  const part = serverPartOf(kind, loaderData);
  if (!part) return [];
  return part === 'failure'
    ? [PART_SOURCES.failure, shareFailureTextsSource(language)]
    : [PART_SOURCES[part]];
}

/**
 * An item the browser fetches itself (a navigation inside the site, a retry), once the part that
 * shows it is here. The fetching code is a chunk of its own (share-fetch.ts): a page the server
 * rendered never needs it. Offline, that chunk or the part may not come either: that is the
 * network failure, which the page offers to retry.
 */
export async function fetchWithPart<K extends ShareKind>(
  kind: K,
  rawId: string | null,
  signal?: AbortSignal,
): Promise<LoadedShare<K>> {
  const share: LoadedShare<K> = await import('./share-fetch').then(
    ({ fetchShare }) => fetchShare(kind, rawId, signal),
    () => ({ state: 'network' }) as const,
  );
  try {
    await loadSharePart(partOf(kind, share));
    return share;
  } catch {
    return { state: 'network' };
  }
}

/** A loaded kind's view: its part must be loaded (see `fetchWithPart` and the route's `prepare`). */
export function loadedShareView<K extends ShareKind>(kind: K): ShareView<K> {
  const view = loaded[kind] as ShareView<K> | undefined;
  if (!view) throw new Error(`The share view of ${kind} is not loaded (loadSharePart)`);
  return view;
}

/**
 * The failure states' view; where its code could not be had (offline before it came), the
 * shell's own "could not be loaded", whose retry fetches the item and the part again.
 */
export function ShareFailurePart(props: ComponentProps<FailureView>): ReactNode {
  const Failure = loaded.failure;
  return Failure ? <Failure {...props} /> : <PartUnavailable onRetry={props.onRetry} />;
}

function PartUnavailable({ onRetry }: { onRetry: () => void }) {
  const text = useShellTexts();
  return (
    <StatusView
      heading={text.errorHeading}
      body={text.errorBody}
      action={
        <button type="button" className={buttons.primary} onClick={onRetry}>
          {text.retry}
        </button>
      }
    />
  );
}
