import type { ComponentProps } from 'react';
import { onDemand } from '../../../lib/chunks/on-demand';
import type { ShareFailureView } from '../share-failure/share-failure-view';
import type { WorkShelf } from '../work-shelf/work-shelf';
// Their stylesheets stay with the page's own, which the server inlines: the browser fetches none
// when their code comes.
import '../share-failure/share-failure-view.module.css';
import '../work-shelf/work-shelf.module.css';

/**
 * Parts of a share page the server draws but the page's start-up code does not carry: the
 * failure states (rare) and the shelf (the end of the page). The browser hydrates them once their
 * chunks have come, the server's HTML on screen until then (on-demand.tsx).
 */
const failureView = onDemand<ComponentProps<typeof ShareFailureView>>(() =>
  import('../share-failure/share-failure-view').then((module) => module.ShareFailureView),
);
const workShelf = onDemand<ComponentProps<typeof WorkShelf>>(() =>
  import('../work-shelf/work-shelf').then((module) => module.WorkShelf),
);

export const LaterFailureView = failureView.Component;
export const LaterWorkShelf = workShelf.Component;

/**
 * In the browser, once the page is hydrated: the failure view's code, so that a failure of the
 * network later (a retry, another item) can still be drawn.
 */
export const preloadFailureView = failureView.preload;

/** On the server, before a share page renders: both, so that it draws them in full. */
export async function loadDrawnLater(): Promise<void> {
  await Promise.all([failureView.load(), workShelf.load()]);
}
