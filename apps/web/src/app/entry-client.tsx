import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import '../styles/global.css';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { installPreloadErrorRecovery } from '../lib/chunks/page-load-recovery';
import { detectClient } from '../lib/client/client-info';
import { documentLanguage } from '../lib/i18n/document-language';
import { installFlexibleLayout } from '../lib/layout/flexible-layout';
import { AppProviders } from './app-providers';
import { resolveLazyMatches } from './resolve-lazy-matches';
import { createRoutes } from './routes';

installFlexibleLayout(window);
installPreloadErrorRecovery(window);

async function start(container: HTMLElement): Promise<void> {
  const language = documentLanguage(document, window.location, navigator.languages);
  const routes = createRoutes();
  let hydrate = container.hasChildNodes();
  try {
    await resolveLazyMatches(routes, window.location);
  } catch {
    // The page's code is unreachable even after the automatic reload: render afresh so the
    // router shows the error screen (with its retry button) instead of a lifeless server page.
    hydrate = false;
    container.replaceChildren();
  }
  const router = createBrowserRouter(routes, { basename: BASE_PATH });
  const app = (
    <AppProviders language={language} client={detectClient(navigator.userAgent)}>
      <RouterProvider router={router} />
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
