import { reportShareEventSoon } from '../../../lib/funnel/report-soon';
import type { AppTarget } from './app-link';
import type { MissingAppState } from './tap-context';

/**
 * The app prompt's state that only React draws (the missing-app sheet, the toast before a store,
 * the open-in-browser guide), kept outside React: the tap code (app-taps.ts) writes it through a
 * TapContext, whoever built that context, and use-open-in-app.ts reads it with
 * useSyncExternalStore. No React here, so that a share page's React-free start-up script
 * (docs/decisions/0031-share-pages-start-without-react.md) can run the taps and write it too.
 *
 * Its scope is the page: one store per document (this module; `import * as promptStore`), as a
 * share page has one AppPromptProvider. The provider stays mounted from one share page to another
 * (every share route renders the same component, with no key), so its state went on across those
 * navigations, and so does the store's. Leaving the share pages unmounts the provider, which
 * dropped its state: use-open-in-app.ts resets the store then. The server never writes it (no
 * effect, no tap runs there), and its render reads `EMPTY_PROMPT` (useSyncExternalStore's server
 * snapshot), as does hydration. Tests share the one store: each leaves it empty (an unmount, or
 * `reset`).
 */
export interface PromptState {
  missingApp: MissingAppState;
  guideOpen: boolean;
}

/** Nothing shown: the state before any tap, on the server and at hydration. */
export const EMPTY_PROMPT: PromptState = {
  missingApp: { sheet: null, toast: null },
  guideOpen: false,
};

// Snapshots are never changed, only replaced: a new object per change, the same while nothing
// changes (what useSyncExternalStore needs).
let state = EMPTY_PROMPT;
const listeners = new Set<() => void>();

function set(next: PromptState): void {
  if (next === state) return;
  state = next;
  listeners.forEach((listener) => {
    listener();
  });
}

/** The state now. */
export function getSnapshot(): PromptState {
  return state;
}

/** `listener` is called after each change; returns the unsubscribe. */
export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function setMissingApp(update: (current: MissingAppState) => MissingAppState): void {
  const current = state.missingApp;
  const next = update(current);
  if (next.sheet !== current.sheet || next.toast !== current.toast)
    set({ ...state, missingApp: next });
}

/** The missing-app sheet, about a target; `returned`: the link domain just sent the visitor back. */
export function showSheet(forTarget: AppTarget, returned = false): void {
  setMissingApp(() => ({ sheet: { target: forTarget, returned }, toast: null }));
}

export function closeSheet(): void {
  setMissingApp((current) => ({ ...current, sheet: null }));
}

/**
 * The guide, counted as shown once per call, about a target if there is one: the funnel's
 * `guide_shown` (docs/decisions/0018-share-funnel-and-operators-listener.md).
 */
export function showGuide(about: AppTarget): void {
  if (about) reportShareEventSoon('guide_shown', about.kind, about.id);
  openGuide();
}

/** The guide, not counted ("get the app" where no store can be reached). */
export function openGuide(): void {
  if (!state.guideOpen) set({ ...state, guideOpen: true });
}

export function closeGuide(): void {
  if (state.guideOpen) set({ ...state, guideOpen: false });
}

/** Back to `EMPTY_PROMPT`: the page's prompt is gone (use-open-in-app.ts, on unmount); tests. */
export function reset(): void {
  set(EMPTY_PROMPT);
}
