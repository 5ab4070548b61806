import {
  prepareSharePages,
  shareLoader,
  ShareRoutePage,
  shareShouldRevalidate,
} from '../../features/share/share-pages';

/**
 * Every share page (goods, cabinet, note): one module, one chunk. The route table's `share` says
 * which kind a route shows; routes.tsx gives each route the loader of its kind from here
 * (`loaderOf`), and the loader's data names the kind to the page. Their <head> is made on the
 * server only (../route-heads/share-pages.ts).
 */
export const loaderOf = shareLoader;
export const shouldRevalidate = shareShouldRevalidate;
/** The texts of the page's language (its chunk preloads with the page), and more on the server. */
export const prepare = prepareSharePages;

export function Component() {
  return <ShareRoutePage />;
}
