/**
 * Every share page (goods, cabinet, note): one route module, one chunk, and no React in it
 * (docs/decisions/0031-share-pages-start-without-react.md). The page the server sent is what the
 * visitor reads; this chunk's `startPage` gives it what it does before React (its taps into the
 * app, the view counted, the images that wait), and starts the app on the visitor's first intent.
 * The page itself (React, the views, the loader) is `load`'s chunk.
 */
export { startPage } from '../../features/share/start/share-start';

export const load = () => import('../../features/share/page/share-route-page');

/** Where the page's own code is, for the server's preloads and styles (entry-server.tsx). */
export const PAGE_SOURCE = 'src/features/share/page/share-route-page.tsx';
