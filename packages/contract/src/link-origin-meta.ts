/**
 * `<meta name="guquan-link-origin" content="https://link…">`: the app's link domain (the server's
 * LINK_ORIGIN), in every page the server sends. Its own module: every page reads it at start-up,
 * and nothing else of the link code needs to come with it.
 */
export const LINK_ORIGIN_META_NAME = 'guquan-link-origin';
