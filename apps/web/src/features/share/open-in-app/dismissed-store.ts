/**
 * Whether the visitor closed the app bar, for this browser tab's session (sessionStorage). React
 * reads it only after hydration (the server renders the bar, so the first client render must too);
 * a share page's start-up script reads it at once and hides the bar from outside React's tree
 * (share-start.ts).
 */
export const APP_BAR_DISMISSED_KEY = 'guquan.share.appBarDismissed';

const listeners = new Set<() => void>();
/** When storage is unavailable (some private modes): remembered for this page only. */
let dismissedInMemory = false;

export function isAppBarDismissed(): boolean {
  try {
    return dismissedInMemory || sessionStorage.getItem(APP_BAR_DISMISSED_KEY) === '1';
  } catch {
    return dismissedInMemory;
  }
}

export function dismissAppBar(): void {
  dismissedInMemory = true;
  try {
    sessionStorage.setItem(APP_BAR_DISMISSED_KEY, '1');
  } catch {
    // Storage refused: the page still remembers it.
  }
  for (const listener of listeners) listener();
}

export function subscribeToAppBar(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** For tests: forget the dismissal. */
export function resetAppBarForTests(): void {
  dismissedInMemory = false;
  try {
    sessionStorage.removeItem(APP_BAR_DISMISSED_KEY);
  } catch {
    // nothing to forget
  }
}
