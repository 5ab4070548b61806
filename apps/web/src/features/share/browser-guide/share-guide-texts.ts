import type { DeepStrings } from '../share-texts';
import type { chineseShareGuideTexts } from './share-guide-texts.zh-CN';

/**
 * The texts of the share pages' "open in the browser" guide, one module per language
 * (share-guide-texts.<language>.ts), Chinese giving the shape. Only the guide shows them, so they
 * load with it, in the page's language (share-guide.<language>.tsx, one chunk each, which
 * share-guide-on-demand.tsx loads on the first open); all-share-guide-texts.ts has both at once,
 * for tests.
 */
export type ShareGuideTexts = DeepStrings<typeof chineseShareGuideTexts>;
