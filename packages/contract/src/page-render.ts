import type { Language } from './language.ts';
import type { LanguageAlternate } from './search-pages.ts';
import type { ShareResult } from './share.ts';
import type { ShareKind } from './share-paths.ts';
import type { WorkShelf } from './share-shelf.ts';

/**
 * A share page's item as the server read it, once, for the page to show: the item, or why it
 * cannot be shown. Of one kind: the result is that kind's item.
 */
export type SharePageData = {
  [K in ShareKind]: {
    readonly kind: K;
    readonly result: ShareResult<K>;
    /** The "more from this work" shelf at the end of the page (share-shelf.ts). */
    readonly shelf?: WorkShelf;
  };
}[ShareKind];

/**
 * What the web app's server bundle (apps/web/src/app/entry-server.tsx) offers the server, which
 * loads it from the build at start-up. Kept here so both sides are checked against one type.
 */
export interface PageRenderRequest {
  /** Path and query of the page, e.g. `/anime_merch_web/website?lang=en`. */
  url: string;
  language: Language;
  /** The request's User-Agent, so the page fits the device (the browser reads the same). */
  userAgent?: string;
  /** Aborts rendering when the client goes away. */
  signal?: AbortSignal;
  /**
   * A share page's item, read by the server (never over HTTP); the page is rendered for exactly
   * this. Without it a share page shows its item as not found.
   */
  share?: SharePageData;
  /**
   * The app's link domain (LINK_ORIGIN): share pages link to the item's Universal Link on it. The
   * document carries it too (LINK_ORIGIN_META_NAME), so the browser renders the same links.
   */
  linkOrigin?: string;
}

/**
 * What a page adds to the document's <head> beyond its title: link previews (Open Graph, Twitter
 * card), robots, and the preload of its largest image. Plain data: the server writes the tags and
 * escapes every value, and makes paths absolute with the public origin.
 */
export interface PageHead {
  /** One or two sentences for previews and search results. */
  description?: string;
  /** The preview image, as a path under the base path. */
  image?: { path: string; width: number; height: number; alt: string };
  /**
   * What a link preview calls the page (og:title, twitter:title) when it is not the document's
   * title: a shared item's own name, with the app's. The document's <title> keeps the route's.
   */
  previewTitle?: string;
  /** `article` for a shared item, else `website`. */
  ogType?: 'website' | 'article';
  /**
   * Keep this page out of search engines (in-app pages, a missing, removed or private item, a
   * legal document's older version): a robots meta tag and an X-Robots-Tag header.
   */
  noindex?: boolean;
  /** The page's one address for search engines (`<link rel="canonical">`), a path and query. */
  canonicalPath?: string;
  /** The same page in each language and `x-default` (`<link rel="alternate" hreflang>`). */
  alternates?: LanguageAlternate[];
  /**
   * Safari's Smart App Banner (`apple-itunes-app`): the app's App Store id and the link the app
   * opens, the same as the page's "open in app".
   */
  appBanner?: { appId: string; appArgument: string };
  /** The page's first image, to fetch at once: it is the largest paint. */
  preloadImage?: { href: string; srcset: string; sizes: string };
}

export interface PageRenderResult {
  status: number;
  title: string;
  /** The app's markup for the root element. */
  html: string;
  /**
   * The router's hydration data as a non-executable `<script type="application/json">` block (no
   * CSP hash or nonce needed), for the end of <body>.
   */
  hydrationScript: string;
  /** Source paths of the route modules rendered, to preload their chunks and styles. */
  modules: string[];
  /**
   * The source path of a module, one of `modules`, whose `startPage(startApp)` starts the page
   * without the app, the app when it calls `startApp` (the share pages:
   * docs/decisions/0031-share-pages-start-without-react.md). Without it the app starts at once.
   */
  start?: string;
  head: PageHead;
}

export interface PageRenderModule {
  renderPage(request: PageRenderRequest): Promise<PageRenderResult>;
  /**
   * The class of device a User-Agent belongs to, as far as a page's markup depends on it (e.g.
   * `ios.wechat`): pages rendered ahead exist once per class and language.
   */
  clientClass(userAgent: string | undefined): string;
  /** One User-Agent per class clientClass tells apart: the pages built ahead cover each. */
  clientClassSamples(): string[];
  /**
   * The route that shows a path, as the router matches it (regardless of case, percent-encoded
   * letters and a trailing slash): its full path as the route table spells it, e.g.
   * `/Website/` → `/anime_merch_web/website`; undefined when no route but the not-found page does.
   * Spellings of one route are one page.
   */
  pagePath(pathname: string): string | undefined;
  /**
   * Paths (under the base path) of the pages that change only with a deployment and depend on
   * neither their query nor stored data: the build renders them ahead.
   */
  staticPagePaths(): string[];
  /**
   * Paths (under the base path, without the language) of the pages search engines should index,
   * for the sitemap: the website and each legal document's current version.
   */
  indexedPagePaths(): string[];
}
