/**
 * When a page's code fails to load — most often because a new deployment removed the chunks this
 * tab still points at — reload the page once to pick up the new version, and never loop: a second
 * failure within RELOAD_GUARD_MS shows the error screen instead (see root-error-boundary.tsx).
 */
export const RELOAD_MARK_KEY = 'guquan:page-load-reload-at';
export const RELOAD_GUARD_MS = 5 * 60 * 1000;

export class PageLoadError extends Error {
  override name = 'PageLoadError';
}

export interface RecoveryEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  reload: () => void;
  now: () => number;
}

let reloading = false;

function browserEnvironment(): RecoveryEnvironment | undefined {
  if (typeof window === 'undefined') return undefined;
  let storage: Storage | undefined;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = undefined; // storage disabled: we cannot remember a reload, so we never reload
  }
  return {
    storage,
    reload: () => {
      window.location.reload();
    },
    now: () => Date.now(),
  };
}

/** Reloads the page unless it was already reloaded for this reason recently. */
export function reloadOnce(env: RecoveryEnvironment | undefined = browserEnvironment()): boolean {
  if (!env?.storage) return false;
  if (reloading) return true;
  try {
    const last = Number(env.storage.getItem(RELOAD_MARK_KEY));
    if (last && env.now() - last < RELOAD_GUARD_MS) return false;
    env.storage.setItem(RELOAD_MARK_KEY, String(env.now()));
  } catch {
    return false;
  }
  reloading = true;
  env.reload();
  return true;
}

function clearReloadMark(env: RecoveryEnvironment | undefined): void {
  try {
    env?.storage?.removeItem(RELOAD_MARK_KEY);
  } catch {
    // nothing to clear
  }
}

/** Loads a page module; on failure reloads once, then fails with a PageLoadError. */
export async function loadWithRecovery<T>(
  load: () => Promise<T>,
  env: RecoveryEnvironment | undefined = browserEnvironment(),
): Promise<T> {
  try {
    const loaded = await load();
    if (reloading) return await new Promise<never>(() => {}); // a preload failed: reloading
    clearReloadMark(env);
    return loaded;
  } catch (cause) {
    if (reloadOnce(env)) return new Promise<never>(() => {}); // the page is going away
    throw new PageLoadError('The page code could not be loaded', { cause });
  }
}

/** Vite's preload helper reports failed CSS/JS preloads with this event. */
export function installPreloadErrorRecovery(win: Window): void {
  win.addEventListener('vite:preloadError', (event) => {
    if (reloadOnce()) event.preventDefault();
  });
}

/** For tests: forget that a reload is under way. */
export function resetRecoveryState(): void {
  reloading = false;
}
