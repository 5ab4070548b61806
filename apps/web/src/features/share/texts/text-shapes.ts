import type { chineseShareGuideTexts } from './share-guide-texts.zh-CN';
import type { chineseShareTexts } from './share-texts.zh-CN';
import type { ShareFailureState } from '../share-types';

/**
 * The shape of each set of the share pages' texts that comes one module per language
 * (`<set>.<language>.ts`), which every language is typed against: a missing or misshapen
 * translation fails to compile. Types only, and a leaf: the languages import it, it imports only
 * the Chinese texts that give a shape (which import nothing from the feature), so no language
 * module and the module that loads it import each other.
 */

export type DeepStrings<T> = T extends string
  ? string
  : T extends readonly string[]
    ? readonly string[]
    : { readonly [K in keyof T]: DeepStrings<T[K]> };

/** Every text of the share pages (share-texts.ts loads the page's language), Chinese giving the shape. */
export type ShareTexts = DeepStrings<typeof chineseShareTexts>;

/**
 * The texts of the share pages' "open in the browser" guide, one module per language
 * (share-guide-texts.<language>.ts), Chinese giving the shape. Only the guide shows them, so they
 * load with it, in the page's language (share-guide.<language>.tsx, one chunk each, which
 * share-guide-on-demand.tsx loads on the first open); all-share-guide-texts.ts has both at once,
 * for tests.
 */
export type ShareGuideTexts = DeepStrings<typeof chineseShareGuideTexts>;

/** What every language says on a failure page: share-failure-texts.<language>.ts. */
export interface FailureTextsShape {
  readonly heading: Readonly<Record<ShareFailureState, string>>;
  readonly why: Readonly<Record<ShareFailureState, string>>;
  readonly download: string;
  readonly code: string;
}

export type ShareFailureTexts = FailureTextsShape;
