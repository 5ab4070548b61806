import type { ReactNode } from 'react';
import type { SharePageData } from '@guquan/contract/page-render';
import type { ShareItems, ShareResult } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';
import type { WorkShelf } from '@guquan/contract/share-shelf';

/**
 * The types the share pages' loader, parts, views and app prompt share. A leaf: it imports
 * nothing from the feature, so whatever imports it closes no circle (tests/repo/file-cycles.test.ts).
 */

/** A share as the page has it: the server's answer, or a network failure the visitor can retry. */
export type LoadedShare<K extends ShareKind> = ShareResult<K> | { readonly state: 'network' };

/** Why a share page cannot show its item (the API's failures, and the browser's network). */
export type ShareFailureState = 'not_found' | 'removed' | 'private' | 'invalid_id' | 'network';

/**
 * A share page's loader data. On the server `result` is already there (the page is rendered with
 * it and its status); in the browser it is a promise, so the page shows its skeleton at once and
 * the item when it comes.
 */
export interface ShareLoaderData<K extends ShareKind> {
  kind: K;
  result: LoadedShare<K> | Promise<LoadedShare<K>>;
  /**
   * The "more from this work" shelf that ends the page, or null when there is none to show (the
   * server sent none, or the browser could not fetch it: the page ends without it). In the browser
   * a promise, fetched beside the item.
   */
  shelf: WorkShelf | null | Promise<WorkShelf | null>;
}

/** What the server read for the page it renders (entry-server puts it in the loader's context). */
export interface ShareLoaderContext {
  share?: SharePageData;
}

/**
 * The parts of a share page that only some pages show, each a chunk of its own (page/share-parts.tsx):
 * the view of each kind's item, and the failure states.
 */
export type SharePart = ShareKind | 'failure';

/** A kind's view: what the page shows of its item. */
export type ShareView<K extends ShareKind> = (item: ShareItems[K]) => ReactNode;

/** The item on screen, whose card WeChat shows when the visitor shares the page. */
export interface SharedItem<K extends ShareKind = ShareKind> {
  kind: K;
  id: string;
  item: ShareItems[K];
}
