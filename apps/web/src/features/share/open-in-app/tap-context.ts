import type { ClientInfo } from '@guquan/contract/client-info';
import type { Language } from '@guquan/contract/language';
import type { AppTarget } from './app-link';

/**
 * What passes between the page and its tap code, types only: the state of the page's prompt
 * (prompt-store.ts keeps it, use-open-in-app.ts draws it) and the context app-taps.ts is handed
 * (which sets that state). Here, not in either, so that the hook, the taps and the missing-app
 * sheet that loads them close no import circle.
 */

/** What the missing-app layer shows: the sheet, or the toast before a store. */
export interface MissingAppState {
  /** The sheet is open, about this target; `returned`: the link domain just sent the visitor back. */
  sheet: { target: AppTarget; returned: boolean } | null;
  /** The toast before a store: whether the share code reached the clipboard. */
  toast: { copied: boolean } | null;
}

/**
 * What a tap needs from the page (prompt-store.ts keeps the state; app-taps.ts decides): the
 * visitor's browser, the link domain, the page's language, target, title and image, and the
 * setters of the sheet, the toast and the guide.
 */
export interface TapContext {
  client: ClientInfo;
  linkOrigin: string;
  language: Language;
  /** A navigation inside the site (a path under the base, with its query). */
  navigate: (to: string) => void;
  /** The page's query, whose `?lang=` a route keeps. */
  search: string;
  /** The page's own target, its title (for the share text) and the image on screen. */
  target: AppTarget;
  title: string;
  image: number | undefined;
  /** The link domain sent the visitor back: the app is not installed. */
  appMissing: boolean;
  setMissingApp: (update: (state: MissingAppState) => MissingAppState) => void;
  /** The missing-app sheet, about a target, and closed again. */
  showSheet: (forTarget: AppTarget) => void;
  closeSheet: () => void;
  /** The guide, counted as shown (`guide_shown`). */
  showGuide: (about: AppTarget) => void;
  /** The guide, not counted ("get the app" where no store can be reached). */
  openGuide: () => void;
  /** Resolves once the toast can be drawn (its code is the missing-app sheet's). */
  loadToast: () => Promise<void>;
  /** The "did the app open?" check under way, to cancel before another starts. */
  cancelWatch: { current: (() => void) | null };
}
