/**
 * The handshake between a share page's start-up script and the app
 * (docs/decisions/0031-share-pages-start-without-react.md): the script starts the app on the
 * visitor's first intent and waits here until it has hydrated, to give it the clicks it held.
 * React-free, in the chunk every page starts with, so both sides share one instance.
 */
export interface StartedApp {
  /** Navigates inside the site: a path under the base, with its query and hash. */
  navigate: (to: string) => void;
}

let announce: ((app: StartedApp) => void) | undefined;

/** Resolves once the app has hydrated the page (never, on a page whose app does not start). */
export const appStarted: Promise<StartedApp> = new Promise((resolve) => {
  announce = resolve;
});

/** Called by the app once, after its first commit. */
export function announceAppStarted(app: StartedApp): void {
  announce?.(app);
  announce = undefined;
}
