import type { ComponentProps } from 'react';
import { onDemand } from '../../../lib/chunks/on-demand';
import type { ShareFailureView } from '../share-failure/share-failure-view';
import type { ShareSkeleton } from '../share-skeleton/share-skeleton';
import type { WorkShelf } from '../work-shelf/work-shelf';
// Their stylesheets stay with the page's own, which the server inlines: the browser fetches none
// when their code comes.
import '../share-failure/share-failure-view.module.css';
import '../share-skeleton/share-skeleton.module.css';
import '../work-shelf/work-shelf.module.css';

/**
 * Parts of a share page the page's start-up code does not carry. The server draws the failure
 * states (rare) and the shelf (the end of the page); the browser hydrates them once their chunks
 * have come, the server's HTML on screen until then (on-demand.tsx). The skeleton shows only
 * while the browser fetches another item, after the page has started.
 */
const failureView = onDemand<ComponentProps<typeof ShareFailureView>>(() =>
  import('../share-failure/share-failure-view').then((module) => module.ShareFailureView),
);
const workShelf = onDemand<ComponentProps<typeof WorkShelf>>(() =>
  import('../work-shelf/work-shelf').then((module) => module.WorkShelf),
);

const skeleton = onDemand<ComponentProps<typeof ShareSkeleton>>(() =>
  import('../share-skeleton/share-skeleton').then((module) => module.ShareSkeleton),
);

export const LaterFailureView = failureView.Component;
export const LaterWorkShelf = workShelf.Component;
export const LaterSkeleton = skeleton.Component;

/**
 * In the browser, once the page is hydrated: what a later fetch of an item shows (the skeleton,
 * and the failure view, which a failure of the network must still find).
 */
export function preloadAfterStart(): void {
  skeleton.preload();
  failureView.preload();
}

/** On the server (and in unit tests), before a share page renders: all, drawn in full there. */
export async function loadDrawnLater(): Promise<void> {
  await Promise.all([failureView.load(), workShelf.load(), skeleton.load()]);
}
