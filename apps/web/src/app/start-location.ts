import type { RouteObject } from 'react-router';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { movedSinceRender, type RenderedLocation } from './hydration-data';

/** Where the app goes once it has hydrated, when the address changed before it started. */
export interface PendingNavigation {
  /** Path under the base path, with query and hash, as the router's navigate() takes it. */
  to: string;
  state: unknown;
}

/**
 * Hydration must start on the page the server rendered, or React finds other markup than it
 * renders (error #418) and throws the page away. When a script changed the address with
 * history.pushState before the app started, the current history entry is pointed back at the
 * rendered page for the start; the app then navigates to the new address (see entry-client.tsx).
 */
export function returnToRenderedLocation(
  rendered: RenderedLocation,
  window: Pick<Window, 'location' | 'history'>,
  routes: RouteObject[],
): PendingNavigation | undefined {
  const { location, history } = window;
  if (!movedSinceRender(rendered, location, routes)) return undefined;
  const target = `${location.pathname}${location.search}${location.hash}`;
  if (location.pathname !== BASE_PATH && !location.pathname.startsWith(`${BASE_PATH}/`)) {
    // Outside the app: nothing it could show in place. Load that address instead.
    location.replace(target);
    return undefined;
  }
  const state: unknown = history.state;
  history.replaceState(state, '', `${rendered.pathname}${rendered.search}`);
  return { to: target.slice(BASE_PATH.length) || '/', state };
}
