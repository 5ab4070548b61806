import {
  appPath,
  opensAtImage,
  universalLink,
  type AppTarget,
} from '@guquan/contract/app-link-paths';
import { parseShareId, type ShareKind } from '@guquan/contract/share-paths';

/**
 * Where "open in app" and "get the app" link in a share page (PRODUCT.md "Share pages",
 * docs/decisions/0017-app-links-and-handoffs.md): the same item in the app, by its Universal Link
 * (App Link on Android) on the link domain, or the custom scheme; the website's download section.
 * What the page draws, and what a tap follows before the page's tap code has come. What a tap
 * decides once that code is here (the browser's plan, the stores) is launch-plan.ts, loaded after
 * the page has started. Pure functions of the target, the link domain (the server's LINK_ORIGIN)
 * and the app's scheme.
 */

/**
 * The app's custom scheme (content/site.json's `appLinks.scheme`), written into the code by the
 * build (vite.config.ts): a page's start-up code carries the scheme, not the rest of site.json.
 */
export const APP_SCHEME: string = __APP_SCHEME__;

/** The website's download section (its id is `download`), for visitors on other platforms. */
export const WEBSITE_DOWNLOAD_PATH = '/website#download';

export type { AppTarget };

/** A place to send the visitor: a full URL (a store) or a path of this site (the website). */
export type Destination = { type: 'url'; href: string } | { type: 'route'; to: string };

/**
 * The target of a share page: its own `?id=` (even when the page cannot show the item: the app
 * may, e.g. to its author), for goods with the image being viewed; without a valid id, the app's
 * start screen.
 */
export function shareTarget(kind: ShareKind, search: string, image = 0): AppTarget {
  const id = parseShareId(new URLSearchParams(search).get('id'));
  return id ? { kind, id, ...(opensAtImage(kind) ? { image } : {}) } : null;
}

export { appPath, universalLink };

export function schemeLink(target: AppTarget, scheme: string = APP_SCHEME): string {
  return `${scheme}://${appPath(target)}`;
}
