import {
  isRouteErrorResponse,
  matchRoutes,
  type HydrationState,
  type RouteObject,
  type StaticHandlerContext,
} from 'react-router';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { HYDRATION_DATA_ID } from '../lib/routing/rendered-location';

/**
 * The router's hydration data travels in a non-executable `<script type="application/json">`
 * block instead of React Router's inline `window.__staticRouterHydrationData = …` script: a data
 * block needs no CSP hash or nonce, so a page can be cached and served to many visitors with one
 * Content-Security-Policy that allows exactly its boot script.
 */
export { HYDRATION_DATA_ID };

/**
 * Where the server rendered the page. Pages built ahead are rendered without a query and share
 * pages with their `?id=` only (what they read), so `search` holds what the page depends on.
 */
export interface RenderedLocation {
  pathname: string;
  search: string;
}

export interface HydrationPayload {
  state: HydrationState;
  location: RenderedLocation;
}

/** Errors as React Router serializes them (its client turns them back into errors). */
function serializeErrors(errors: StaticHandlerContext['errors']): Record<string, unknown> | null {
  if (!errors) return null;
  const serialized: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(errors)) {
    if (isRouteErrorResponse(value)) serialized[key] = { ...value, __type: 'RouteErrorResponse' };
    else if (value instanceof Error)
      serialized[key] = {
        message: value.message,
        __type: 'Error',
        ...(value.name !== 'Error' ? { __subType: value.name } : {}),
      };
    else serialized[key] = value;
  }
  return serialized;
}

/** The data block for the end of <body>; `<` is escaped so no text can close the element. */
export function hydrationDataScript(
  context: StaticHandlerContext,
  location: RenderedLocation,
): string {
  const payload = {
    state: {
      loaderData: context.loaderData,
      actionData: context.actionData,
      errors: serializeErrors(context.errors),
    },
    location,
  };
  const json = JSON.stringify(payload)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${HYDRATION_DATA_ID}">${json}</script>`;
}

/** The payload the server left in the page, or undefined when there is none (or it is broken). */
export function readHydrationData(document: Document): HydrationPayload | undefined {
  const text = document.getElementById(HYDRATION_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    const payload = JSON.parse(text) as Partial<HydrationPayload> | null;
    if (!payload?.state || typeof payload.location?.pathname !== 'string') return undefined;
    return payload as HydrationPayload;
  } catch {
    return undefined;
  }
}

/** The route that shows a path (the router's match: any case, a trailing slash, %-encoded). */
function routeIdOf(routes: RouteObject[], pathname: string): string | undefined {
  return matchRoutes(routes, pathname, BASE_PATH)?.at(-1)?.route.id;
}

/**
 * Whether the browser's address is no longer the page the server rendered: a script called
 * history.pushState or replaceState before the app started. Another spelling of the same route
 * (`/Website/` for `/website`, any unknown path for another) is the same page: the server sends
 * one page for all of them.
 */
export function movedSinceRender(
  rendered: RenderedLocation,
  current: Pick<Location, 'pathname' | 'search'>,
  routes: RouteObject[],
): boolean {
  if (
    rendered.pathname !== current.pathname &&
    routeIdOf(routes, rendered.pathname) !== routeIdOf(routes, current.pathname)
  )
    return true;
  // Parameters the page was not rendered with (a tracker's) do not change it, nor does `lang`:
  // the document's language is fixed for the app's life (documentLanguage), the router ignores it.
  const now = new URLSearchParams(current.search);
  for (const [name, value] of new URLSearchParams(rendered.search)) {
    if (name !== 'lang' && now.get(name) !== value) return true;
  }
  return false;
}
