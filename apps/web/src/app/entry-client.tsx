import { startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, type HydrationState } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import '../styles/global.css';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { readLinkOrigin } from '../lib/app-links/read-link-origin';
import { installPreloadErrorRecovery } from '../lib/chunks/page-load-recovery';
import { detectClient } from '@guquan/contract/client-info';
import { documentLanguage } from '../lib/i18n/document-language';
import { installFlexibleLayout } from '../lib/layout/flexible-layout';
import { announceAppStarted } from '../lib/app-start/app-started';
import { AppProviders } from './app-providers';
import { offerBridgeSimulator } from './bridge-simulator';
import { readHydrationData } from './hydration-data';
import { resolveLazyMatches } from './resolve-lazy-matches';
import { createRoutes } from './routes';
import { returnToRenderedLocation, type PendingNavigation } from './start-location';

declare global {
  interface Window {
    /** Where React Router's browser router reads the server's data (and revives its errors). */
    __staticRouterHydrationData?: HydrationState;
  }
}

installFlexibleLayout(window);
installPreloadErrorRecovery(window);
offerBridgeSimulator(window);

/** Runs once the tree it is in has committed: for a hydrated tree, once hydration is done. */
function AfterCommit({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

async function start(container: HTMLElement): Promise<void> {
  const language = documentLanguage(document, window.location, navigator.languages);
  const routes = createRoutes();
  const rendered = readHydrationData(document);
  let hydrate = container.hasChildNodes();
  let pending: PendingNavigation | undefined;
  if (hydrate && rendered) {
    window.__staticRouterHydrationData = rendered.state;
    pending = returnToRenderedLocation(rendered.location, window, routes);
  }
  try {
    await resolveLazyMatches(routes, window.location);
  } catch {
    // The page's code is unreachable even after the automatic reload: render afresh so the
    // router shows the error screen (with its retry button) instead of a lifeless server page.
    hydrate = false;
    container.replaceChildren();
  }
  const router = createBrowserRouter(routes, { basename: BASE_PATH });
  const afterStart = () => {
    const next = pending;
    pending = undefined;
    if (next) void router.navigate(next.to, { replace: true, state: next.state });
    // A share page's start-up script waits for this to give the router the clicks it held.
    announceAppStarted({
      navigate: (to) => {
        void router.navigate(to);
      },
    });
  };
  const app = (
    <AppProviders
      language={language}
      client={detectClient(navigator.userAgent)}
      linkOrigin={readLinkOrigin(document)}
    >
      <RouterProvider router={router} />
      <AfterCommit run={afterStart} />
    </AppProviders>
  );
  // Hydrating inside a transition lets React yield to the browser every few milliseconds instead
  // of holding the main thread for the whole page (the visitor already sees the server's HTML).
  startTransition(() => {
    if (hydrate) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}

const container = document.getElementById('root');
if (container) void start(container);
