import {
  shareLoader,
  ShareRoutePage,
  shareShouldRevalidate,
} from '../../features/share/share-pages';
import { prepareShareTexts } from '../../features/share/share-texts';

/**
 * Every share page (goods, cabinet, note): one module, one chunk. The route table's `share` says
 * which kind a route shows; routes.tsx gives each route the loader of its kind from here
 * (`loaderOf`), and the loader's data names the kind to the page. Their <head> is made on the
 * server only (../route-heads/share-pages.ts).
 */
export const loaderOf = shareLoader;
export const shouldRevalidate = shareShouldRevalidate;
/** The texts of the page's language, loaded before it renders (its chunk preloads with the page). */
export const prepare = prepareShareTexts;

export function Component() {
  return <ShareRoutePage />;
}
