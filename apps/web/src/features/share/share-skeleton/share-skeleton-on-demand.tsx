import type { ShareKind } from '@guquan/contract/share-paths';
import { onDemand } from '../../../lib/chunks/on-demand';

/**
 * The skeleton, for a navigation inside the site only (a page the server sent has its item
 * already): so it stays out of the start-up, and the page fetches it once it has hydrated
 * (`preloadShareSkeleton`), before a visitor can tap a link to another item.
 */
export const { Component: ShareSkeleton, preload: preloadShareSkeleton } = onDemand<{
  kind: ShareKind;
}>(() => import('./share-skeleton').then((module) => module.ShareSkeleton));
