import { DEMO_IDS } from './demo-ids.ts';

/**
 * The query that makes a route show its page with the demo data rather than a state (by route id
 * of apps/web/src/config/route-table.ts): the tests open these, the README links to them.
 */
export const DEMO_PAGE_QUERIES: Readonly<Record<string, string>> = {
  'goods-share': `id=${DEMO_IDS.goods.gallery}`,
  'cabinet-share': `id=${DEMO_IDS.cabinets.main}`,
  'notes-share': `id=${DEMO_IDS.notes.rich}`,
};
