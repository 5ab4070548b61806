import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Language } from '@guquan/contract/language';
import {
  parseShareId,
  sharePageAddress,
  sharePageKind,
  type ShareKind,
} from '@guquan/contract/share-paths';
import { APP_MISSING_PARAM, APP_MISSING_VALUE } from '@guquan/contract/app-link-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { requestLanguage, type LanguageSource } from '../http/request-language.ts';
import type { ShareReader } from '../shares/share-reader.ts';
import type { WorkShelfReader } from '../shares/work-shelf-reader.ts';
import {
  REVALIDATED_PAGE_CACHE_CONTROL,
  WECHAT_SHARE_PAGE_CACHE_CONTROL,
  sharePageCacheControl,
} from './page-cache-policy.ts';
import { withWeChatJsSdk } from './page-csp.ts';
import { renderDocument, type DocumentSettings, type RenderedDocument } from './page-document.ts';
import { sendFinishedPage } from './page-response.ts';
import { createRenderBudget, renderClientOf, type RenderBudgetOptions } from './render-budget.ts';
import { renderBusyPage, renderFailurePage } from './render-failure-page.ts';
import { searchFileRoutes } from './search-files.ts';
import {
  cachedPage,
  createRenderedPageCache,
  type CachedPage,
  type RenderedPageCache,
} from './rendered-page-cache.ts';
import {
  createSharePages,
  showsOwnItem,
  type SharePageObserver,
  type ShareRead,
} from './share-page-cache.ts';
import {
  contentEtag,
  loadStaticPages,
  renderStaticPage,
  servedStaticPage,
  type StaticPages,
} from './static-pages.ts';

export interface PageRoutesOptions extends DocumentSettings {
  /**
   * Reads shares for the share pages, each item at most once a second (recent-share-reads.ts);
   * without it they show their item as not found.
   */
  shares?: ShareReader;
  /** The "more from this work" shelf at the end of each share page; without it, none. */
  shelves?: WorkShelfReader;
  /** The most the cache of rendered pages may hold, in bytes (default 64 MB). */
  renderedPageCacheBytes?: number;
  /** Renders of pages that name an item, per client (render-budget.ts). */
  renderBudget?: RenderBudgetOptions;
  /** Told where pages come from (operations/metrics.ts). */
  observer?: PageObserver;
}

/** What the page routes tell the metrics: share-page cache hits and renders, pages built ahead. */
export interface PageObserver extends SharePageObserver {
  evicted(): void;
  prebuiltServed(): void;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * A visitor who opens share links has a few such renders a minute; a scan of items' pages has one
 * per item. A burst of 60, then 2 a second, holds a scan to a few percent of a core.
 */
const DEFAULT_RENDER_BUDGET: RenderBudgetOptions = { burst: 60, perSecond: 2 };

/** Without a share reader: every share page shows its item as not found. */
const NO_SHARES: ShareReader = { read: () => Promise.resolve({ state: 'not_found' }) };

/**
 * The address the one not-found page is rendered at: a path no route names (checked at start).
 * Not the visitor's own, which could carry what they would not share with the next visitor.
 */
const NOT_FOUND_ADDRESS = `${BASE_PATH}/not-found`;

// Requests are parsed against a fixed origin: nothing here depends on the Host header.
const INTERNAL_ORIGIN = 'http://page.internal';

const userAgentSchema = z.string().max(1024);

function finished(document: RenderedDocument): CachedPage {
  return cachedPage(
    document.status,
    document.html,
    contentEtag(document.html),
    document.csp,
    document.robots,
  );
}

/** What a page request asks for, parsed once. */
interface PageRequest {
  request: FastifyRequest;
  reply: FastifyReply;
  language: Language;
  source: LanguageSource;
  userAgent: string | undefined;
}

/** How many paths' routes are remembered at most (a path and its route, some tens of bytes). */
const REMEMBERED_PAGE_PATHS = 2_000;
/** What is remembered of a path that is no route (lru-cache keeps no undefined). */
const NO_ROUTE = Symbol('no route');

/**
 * The route's own spelling of a path (renderer.pagePath), remembered: React Router ranks every
 * route on each match, which cost a hot page more than sending it. The least recently asked path
 * is forgotten first, so a flood of one-off paths only ever costs the match it would have cost
 * anyway.
 */
function rememberedPagePaths(
  pagePath: (pathname: string) => string | undefined,
): (pathname: string) => string | undefined {
  const known = new LRUCache<string, string | typeof NO_ROUTE>({ max: REMEMBERED_PAGE_PATHS });
  return (pathname) => {
    const remembered = known.get(pathname);
    if (remembered !== undefined) return remembered === NO_ROUTE ? undefined : remembered;
    const path = pagePath(pathname);
    known.set(pathname, path ?? NO_ROUTE);
    return path;
  };
}

/**
 * The address a share page is rendered for (its og:url): `app=missing` stays on it when the link
 * domain sent the visitor, as the page then offers the app first.
 */
function sharePageUrl(read: ShareRead): string {
  const address = sharePageAddress(read.kind, read.pageId, read.language);
  return read.appMissing ? `${address}&${APP_MISSING_PARAM}=${APP_MISSING_VALUE}` : address;
}

/**
 * Serves every page under the base path. Any spelling the router takes for a route (case, a
 * trailing slash, percent-encoded letters) is that route's one page: pages built ahead as they
 * are, share pages from the cache of rendered pages (rendered once per version of what they show),
 * the not-found page once per language and device class; only in-app pages are rendered on each
 * request. A page whose rendering fails answers an HTML error page.
 */
function pageSender(options: PageRoutesOptions, statics: StaticPages, cache: RenderedPageCache) {
  const production = options.demo !== true;
  const serverSettings = {
    demo: !production,
    publicOrigin: options.publicOrigin,
    linkOrigin: options.linkOrigin,
  };
  const { renderer } = options.build;
  const pagePathOf = rememberedPagePaths((pathname) => renderer.pagePath(pathname));
  const staticPaths = new Set(renderer.staticPagePaths());
  if (renderer.pagePath(NOT_FOUND_ADDRESS) !== undefined)
    throw new Error(`${NOT_FOUND_ADDRESS} is a route: the not-found page needs another address`);
  const renders = createRenderBudget(options.renderBudget ?? DEFAULT_RENDER_BUDGET);

  async function renderSharePage(read: ShareRead): Promise<CachedPage> {
    // The markup does not depend on the device here (the app prompt's guide renders closed), so
    // one page serves every visitor; a test checks that.
    const document = await renderDocument(options, {
      url: sharePageUrl(read),
      language: read.language,
      share: read.data,
    });
    return cachedPage(document.status, document.html, read.version, document.csp, document.robots);
  }

  const sharePages = createSharePages({
    buildId: options.build.buildId,
    linkOrigin: options.linkOrigin,
    shares: options.shares ?? NO_SHARES,
    ...(options.shelves ? { shelves: options.shelves } : {}),
    cache,
    render: renderSharePage,
    observer: options.observer,
  });

  /** A page built ahead (or, in a build without them, rendered once per language and class). */
  async function sendStaticPage(page: PageRequest, path: string): Promise<FastifyReply> {
    const { request, reply, language, userAgent } = page;
    const clientClass = renderer.clientClass(userAgent);
    const prebuilt = statics.find(path, language, clientClass);
    if (prebuilt) options.observer?.prebuiltServed();
    const built =
      prebuilt ??
      (await cache.once(`static\n${path}\n${language}\n${clientClass}`, async () =>
        servedStaticPage(
          await renderStaticPage(options.build, path, language, userAgent),
          serverSettings,
        ),
      ));
    return sendFinishedPage(request, reply, built, {
      cacheControl: REVALIDATED_PAGE_CACHE_CONTROL,
      language,
      vary: 'Accept-Language',
    });
  }

  /** The one not-found page, whatever unknown path was asked for. */
  async function sendNotFoundPage(page: PageRequest): Promise<FastifyReply> {
    const { request, reply, language, userAgent } = page;
    const clientClass = renderer.clientClass(userAgent);
    const notFound = await cache.once(`not-found\n${language}\n${clientClass}`, async () =>
      finished(
        await renderDocument(options, {
          url: NOT_FOUND_ADDRESS,
          language,
          ...(userAgent === undefined ? {} : { userAgent }),
        }),
      ),
    );
    return sendFinishedPage(request, reply, notFound, {
      cacheControl: REVALIDATED_PAGE_CACHE_CONTROL,
      language,
      vary: 'Accept-Language',
    });
  }

  /**
   * A share page: its item read at most once a second, its page rendered once per version. A page
   * that names an item of its own and is not rendered yet takes one render from the client's
   * budget; past it, the client is asked to wait (429).
   */
  async function sendSharePage(
    page: PageRequest,
    kind: ShareKind,
    query: URLSearchParams,
  ): Promise<FastifyReply> {
    const { request, reply, language, source, userAgent } = page;
    const read = await sharePages.read({
      kind,
      id: parseShareId(query.get('id')),
      language,
      appMissing: query.get(APP_MISSING_PARAM) === APP_MISSING_VALUE,
    });
    const shared = await sharePages.page(
      read,
      () => !showsOwnItem(read) || renders.take(renderClientOf(request.ip)),
    );
    if (!shared) {
      const busy = renderBusyPage(options.build, request.url, language, production);
      reply.header('retry-after', '1');
      return sendFinishedPage(request, reply, finished(busy), {
        cacheControl: 'no-store',
        language,
      });
    }
    // Inside WeChat, with the settings, the page loads WeChat's JS-SDK: its policy allows it.
    if (options.wechat === true && renderer.clientClass(userAgent).endsWith('.wechat'))
      return sendFinishedPage(
        request,
        reply,
        { ...shared, csp: withWeChatJsSdk(shared.csp) },
        { cacheControl: WECHAT_SHARE_PAGE_CACHE_CONTROL, language },
      );
    return sendFinishedPage(request, reply, shared, {
      cacheControl: sharePageCacheControl(shared.status, source),
      language,
    });
  }

  /** An in-app page: rendered for this request (its markup follows its query). */
  async function sendRenderedPage(page: PageRequest): Promise<FastifyReply> {
    const { request, reply, language, userAgent } = page;
    const aborted = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) aborted.abort();
    });
    const document = await renderDocument(options, {
      url: request.url,
      language,
      ...(userAgent === undefined ? {} : { userAgent }),
      signal: aborted.signal,
    });
    return sendFinishedPage(request, reply, finished(document), {
      cacheControl: REVALIDATED_PAGE_CACHE_CONTROL,
      language,
      vary: 'Accept-Language',
    });
  }

  async function sendPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const { language, source } = requestLanguage(request);
    const userAgent = userAgentSchema.safeParse(request.headers['user-agent']).data;
    const page: PageRequest = { request, reply, language, source, userAgent };
    const address = new URL(request.url, INTERNAL_ORIGIN);
    // The route's own spelling: every spelling the router takes for it is the same page.
    const path = pagePathOf(address.pathname);
    if (path === undefined) return sendNotFoundPage(page);
    if (staticPaths.has(path)) return sendStaticPage(page, path);
    const kind = sharePageKind(path);
    if (kind) return sendSharePage(page, kind, address.searchParams);
    return sendRenderedPage(page);
  }

  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      return await sendPage(request, reply);
    } catch (error) {
      // The database away is no rendering failure: the error handler answers 503 (a page that
      // says to try again soon), and the server recovers by itself when it is back.
      if (error instanceof Error && isDatabaseUnavailable(error)) throw error;
      request.log.error({ err: error }, 'rendering a page failed');
      const { language } = requestLanguage(request);
      const failure = renderFailurePage(
        options.build,
        request.url,
        language,
        production,
        request.id,
      );
      return sendFinishedPage(request, reply, finished(failure), {
        cacheControl: 'no-store',
        language,
      });
    }
  };
}

export async function pageRoutes(app: FastifyInstance, options: PageRoutesOptions): Promise<void> {
  const statics = await loadStaticPages(options.build, {
    demo: options.demo === true,
    publicOrigin: options.publicOrigin,
    linkOrigin: options.linkOrigin,
  });
  if (statics.count === 0)
    app.log.warn('No pages built ahead for this build: static pages are rendered on request');
  const cache = createRenderedPageCache({
    maxBytes: options.renderedPageCacheBytes ?? DEFAULT_CACHE_BYTES,
    ...(options.observer ? { onEvict: () => options.observer?.evicted() } : {}),
  });
  const sendPage = pageSender(options, statics, cache);
  const toWebsite = (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`${BASE_PATH}/website${query}`, 302);
  };
  searchFileRoutes(app, {
    publicOrigin: options.publicOrigin,
    indexedPaths: options.build.renderer.indexedPagePaths(),
  });
  app.get('/', toWebsite);
  app.get(BASE_PATH, toWebsite);
  app.get(`${BASE_PATH}/`, toWebsite);
  app.get(`${BASE_PATH}/*`, sendPage);
}
