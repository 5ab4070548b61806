import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  StaticRouterProvider,
  type StaticHandlerContext,
} from 'react-router';
import type {
  PageHead,
  PageRenderModule,
  PageRenderRequest,
  PageRenderResult,
} from '@guquan/contract/page-render';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { clientClassSamples, detectClient } from '@guquan/contract/client-info';
import { fullPath, NOT_FOUND_ROUTE_ID, routeTable, type RouteEntry } from '../config/route-table';
import type { ShareLoaderContext } from '../features/share/share-types';
import { sharePartsSources } from '../features/share/page/share-parts';
import { shareTextsSource } from '../features/share/texts/share-texts';
import { indexedPagePaths, searchHeadOf } from '../config/search-indexing';
import { isStaticRoute } from '../config/static-routes';
import { titleForMatches } from '../lib/routing/document-title';
import { AppProviders } from './app-providers';
import { hydrationDataScript } from './hydration-data';
import { loadRouteHead } from './route-heads';
import { routeModuleSource } from './route-modules';
import { createRoutes } from './routes';
import { PAGE_SOURCE as SHARE_PAGE_SOURCE } from './routes/share-pages';

// One handler for the process: the route modules it loads stay resolved for later requests.
const handler = createStaticHandler(createRoutes(), { basename: BASE_PATH });

// Requests are built against a fixed origin: nothing here depends on the Host header.
const INTERNAL_ORIGIN = 'http://page.internal';

function statusOf(context: StaticHandlerContext): number {
  const leaf = context.matches.at(-1);
  return leaf?.route.id === NOT_FOUND_ROUTE_ID ? 404 : context.statusCode;
}

/**
 * The modules a page of a route starts with beyond the shell, which the server preloads with it:
 * its route module, and on a share page the page's own code (the route module only starts it),
 * the texts of the page's language (share-texts.ts) and the part of the page its loader data
 * shows (share-parts.tsx: the item's view, or the failure).
 */
export function pageModules(entry: RouteEntry, language: Language, loaderData?: unknown): string[] {
  return [
    routeModuleSource(entry.module),
    ...(entry.share
      ? [
          SHARE_PAGE_SOURCE,
          shareTextsSource(language),
          ...sharePartsSources(entry.share, loaderData, language),
        ]
      : []),
  ];
}

function modulesOf(context: StaticHandlerContext, language: Language): string[] {
  return context.matches.flatMap((match) => {
    const entry = routeTable.find((route) => route.id === match.route.id);
    return entry ? pageModules(entry, language, context.loaderData[match.route.id]) : [];
  });
}

export async function renderPage({
  url,
  language,
  userAgent,
  signal,
  share,
  linkOrigin = '',
}: PageRenderRequest): Promise<PageRenderResult> {
  if (!url.startsWith('/')) throw new Error(`Not a path: ${url}`);
  // Concatenated, not resolved: a path such as //host must not become another origin.
  const request = new Request(`${INTERNAL_ORIGIN}${url}`, signal ? { signal } : {});
  // Loaders read data through this context on the server, never over HTTP: a share page gets the
  // item the server read for it.
  const requestContext: ShareLoaderContext = share ? { share } : {};
  const context = await handler.query(request, { requestContext });
  if (context instanceof Response) {
    // The site declares no redirects; a loader that answers with a Response is a bug.
    throw new Error(`Unexpected response ${context.status} while rendering ${url}`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <AppProviders language={language} client={detectClient(userAgent)} linkOrigin={linkOrigin}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  return {
    status: statusOf(context),
    title: titleForMatches(
      context.matches.map((match) => ({ handle: match.route.handle as unknown })),
      language,
    ),
    html,
    hydrationScript: hydrationDataScript(context, {
      pathname: context.location.pathname,
      search: context.location.search,
    }),
    modules: modulesOf(context, language),
    ...startOf(context),
    head: await headOf(context, language, linkOrigin),
  };
}

/**
 * The module a page of a route starts with before the app (a share page: its route module,
 * routes/share-pages.tsx, starts without React), if it has one: the server's page-assets.ts
 * imports it first, and scripts/check-size.mjs holds it to its own budget.
 */
export function pageStart(entry: RouteEntry): string | undefined {
  return entry.share ? routeModuleSource(entry.module) : undefined;
}

function startOf(context: StaticHandlerContext): { start?: string } {
  const leaf = (routeTable as readonly RouteEntry[]).find(
    (route) => route.id === context.matches.at(-1)?.route.id,
  );
  const start = leaf && pageStart(leaf);
  return start ? { start } : {};
}

/**
 * The head of the deepest matched route: what search engines should do with it (its route's kind),
 * and what its module adds (share pages: previews, robots by what they show, the app banner).
 */
async function headOf(
  context: StaticHandlerContext,
  language: Language,
  linkOrigin: string,
): Promise<PageHead> {
  const leaf = context.matches.at(-1);
  const entry = leaf ? routeTable.find((route) => route.id === leaf.route.id) : undefined;
  if (!leaf || !entry) return {};
  const head = await loadRouteHead(entry.module);
  return {
    ...searchHeadOf(entry, language),
    ...(head
      ? head(context.loaderData[leaf.route.id], language, context.location.search, { linkOrigin })
      : {}),
  };
}

/** The full path of the route that shows `pathname`, as the router matches it (PageRenderModule). */
export function pagePath(pathname: string): string | undefined {
  const leaf = matchRoutes(handler.dataRoutes, pathname, BASE_PATH)?.at(-1);
  const entry = routeTable.find((route) => route.id === leaf?.route.id);
  return entry && entry.id !== NOT_FOUND_ROUTE_ID ? fullPath(entry) : undefined;
}

/** A name for the device class the page's markup depends on (see detectClient). */
export function clientClass(userAgent: string | undefined): string {
  const { platform, inAppBrowser } = detectClient(userAgent);
  return `${platform}.${inAppBrowser}`;
}

export function staticPagePaths(): string[] {
  return routeTable.filter(isStaticRoute).map((entry) => `${BASE_PATH}${entry.path}`);
}

export { clientClassSamples, routeTable, indexedPagePaths };

// Checked here so a change of the contract breaks the web build, not the server at run time.
export const pageRenderModule: PageRenderModule = {
  renderPage,
  pagePath,
  clientClass,
  clientClassSamples,
  staticPagePaths,
  indexedPagePaths,
};
