import type { RouteEntry } from '../../../config/route-table';
import {
  prepareSharePages,
  shareLoader,
  ShareRoutePage,
  shareShouldRevalidate,
} from './share-pages';

/**
 * The share pages' page itself (React, the views, the loader): the chunk their route module
 * (app/routes/share-pages.tsx) loads once the visitor acts, or at once where the page needs the
 * app without waiting (docs/decisions/0031-share-pages-start-without-react.md). The route table's
 * `share` says which kind a route shows; routes.tsx gives each route the loader of its kind from
 * here (`loaderOf`), and the loader's data names the kind to the page. Their <head> is made on
 * the server only (app/route-heads/share-pages.ts).
 */
export const loaderOf = shareLoader;
export const shouldRevalidate = shareShouldRevalidate;
/**
 * The texts of the page's language and the part the server's page shows (their chunks preload
 * with the page); on the server, all of them.
 */
export function prepare(entry: RouteEntry, serverData: unknown): Promise<void> {
  if (!entry.share)
    throw new Error(`The share pages' module serves ${entry.id}, not a share route`);
  return prepareSharePages(entry.share, serverData);
}

export function Component() {
  return <ShareRoutePage />;
}
