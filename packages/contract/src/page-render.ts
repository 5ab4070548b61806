import type { Language } from './language.ts';

/**
 * What the web app's server bundle (apps/web/src/app/entry-server.tsx) offers the server, which
 * loads it from the build at start-up. Kept here so both sides are checked against one type.
 */
export interface PageRenderRequest {
  /** Path and query of the page, e.g. `/anime_merch_web/website?lang=en`. */
  url: string;
  language: Language;
  /** CSP nonce for the inline hydration script. */
  nonce: string;
  /** The request's User-Agent, so the page fits the device (the browser reads the same). */
  userAgent?: string;
  /** Aborts rendering when the client goes away. */
  signal?: AbortSignal;
}

export interface PageRenderResult {
  status: number;
  title: string;
  /** The app's markup for the root element, hydration data included. */
  html: string;
  /** Source paths of the route modules rendered, to preload their chunks and styles. */
  modules: string[];
}

export interface PageRenderModule {
  renderPage(request: PageRenderRequest): Promise<PageRenderResult>;
}
