import type { ComponentProps } from 'react';
import { onDemand } from '../../../lib/chunks/on-demand';
import type { ShareSkeleton } from './share-skeleton';
// Its stylesheets stay with the page's own, which the server inlines: the browser fetches none
// when its code comes (the shimmer is shared with the redeem page's skeleton).
import '../../../components/shimmer.module.css';
import './share-skeleton.module.css';

/**
 * The part of a share page the page's start-up code does not carry: the skeleton, shown only
 * while the browser fetches another item, after the page has started. The failure states and the
 * shelf were drawn later too (the server drew them, the browser hydrated them once their chunks
 * came), but hydration does not wait for them: an update reaching their Suspense boundary before
 * their code (the router's own, as it starts) made React drop the server's HTML, and the failure
 * and the shelf blinked out for 50–600 ms. They are in the page's code again.
 */
const skeleton = onDemand<ComponentProps<typeof ShareSkeleton>>(() =>
  import('./share-skeleton').then((module) => module.ShareSkeleton),
);

export const LaterSkeleton = skeleton.Component;

/** In the browser, once the page is hydrated: what a later fetch of an item shows. */
export function preloadAfterStart(): void {
  skeleton.preload();
}

/** Unit tests, before they render share pages: the skeleton drawn at once, as once preloaded. */
export async function loadDrawnLater(): Promise<void> {
  await skeleton.load();
}
