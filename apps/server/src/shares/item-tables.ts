import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * Where each kind of share keeps its items: the table (every one has `public_id`, `visibility`
 * and `removed_at`) and the column that names an item (contract `shareTitle` says the same of
 * the item as the API gives it). For code that looks items up by kind without reading them whole:
 * the funnel's check that an item exists, the operators' page's titles.
 */
export const ITEM_TABLES = {
  goods: 'goods',
  cabinet: 'cabinets',
  note: 'notes',
} as const satisfies Record<ShareKind, string>;

export const ITEM_TITLE_COLUMNS = {
  goods: 'name',
  cabinet: 'name',
  note: 'title',
} as const satisfies Record<ShareKind, string>;
