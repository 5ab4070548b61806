import { sharePageKind, type ShareKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from './demo-ids.ts';

/** The demo item each kind of share page shows: the tests open these, the README links to them. */
export const DEMO_SHARE_IDS: Readonly<Record<ShareKind, string>> = {
  goods: DEMO_IDS.goods.gallery,
  cabinet: DEMO_IDS.cabinets.main,
  note: DEMO_IDS.notes.rich,
};

/**
 * The query that makes a page (by its path under the base path, as the route table writes it)
 * show the demo data rather than a state: a share page's demo item; other pages need none.
 */
export function demoPageQuery(path: string): string | undefined {
  const kind = sharePageKind(`${BASE_PATH}${path}`);
  return kind === undefined ? undefined : `id=${DEMO_SHARE_IDS[kind]}`;
}
