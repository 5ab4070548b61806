/**
 * Constants the build writes into the code (vite.config.ts, `define`): what a page needs of the
 * site's content without carrying the content file.
 */

/** content/site.json's `appLinks.scheme`: the app's custom URL scheme. */
declare const __APP_SCHEME__: string;
