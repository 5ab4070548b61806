import type * as AppTapsModule from './app-taps';

type AppTaps = typeof AppTapsModule;

let loading: Promise<AppTaps> | undefined;
let loaded: AppTaps | undefined;

/**
 * The share pages' tap code (app-taps.ts: what a tap on "open", "get the app" or a place of the
 * app decides), out of the pages' start-up JavaScript: the page starts its load once it has
 * hydrated (use-open-in-app.ts), the missing-app sheet loads it with its own code. A tap runs it
 * synchronously, as browsers open apps, write the clipboard and follow Universal Links only
 * from within the tap; a tap before it is here follows the server's link. Where its chunk cannot
 * be had (offline, a new deployment removed it), the links keep doing what they do without it
 * and a later load tries again, as `onDemand` does (lib/chunks/on-demand.tsx): no reload for code
 * the page works without. One object, so that a test can stand in for the load.
 */
export const appTapCode = {
  /** The tap code, once it is here; `undefined` before. */
  get(): AppTaps | undefined {
    return loaded;
  },
  /** Starts the load once (again after a failure); resolves when the code is here. */
  load(): Promise<AppTaps> {
    loading ??= import('./app-taps').then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  },
};

/** Starts the load without waiting for it (a failure leaves the links as they are). */
export function preloadAppTaps(): void {
  void appTapCode.load().catch(() => undefined);
}
