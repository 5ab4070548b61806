import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  languageOfTag,
  parseAcceptLanguage,
  pickLanguage,
  type Language,
} from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import type { ShareReader } from '@guquan/contract/share';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import {
  REVALIDATED_PAGE_CACHE_CONTROL,
  SHARE_REUSE_SECONDS,
  WECHAT_SHARE_PAGE_CACHE_CONTROL,
  sharePageCacheControl,
  type LanguageSource,
} from './page-cache-policy.ts';
import { withWeChatJsSdk } from './page-csp.ts';
import { renderDocument, type DocumentSettings, type RenderedDocument } from './page-document.ts';
import { sendFinishedPage } from './page-response.ts';
import { renderFailurePage } from './render-failure-page.ts';
import { searchFileRoutes } from './search-files.ts';
import {
  cachedPage,
  createRenderedPageCache,
  type CachedPage,
  type RenderedPageCache,
} from './rendered-page-cache.ts';
import {
  canonicalShareUrl,
  createSharePages,
  shareIdOf,
  sharePageKind,
  type SharePageObserver,
} from './share-page-cache.ts';
import {
  contentEtag,
  loadStaticPages,
  renderStaticPage,
  servedStaticPage,
  type StaticPages,
} from './static-pages.ts';

export interface PageRoutesOptions extends DocumentSettings {
  /** Reads shares for the share pages; without it they render as not found. */
  shares?: ShareReader;
  /** The most the cache of rendered pages may hold, in bytes (default 64 MB). */
  renderedPageCacheBytes?: number;
  /** Told where pages come from (operations/metrics.ts). */
  observer?: PageObserver;
}

/** What the page routes tell the metrics: share-page cache hits and renders, pages built ahead. */
export interface PageObserver extends SharePageObserver {
  evicted(): void;
  prebuiltServed(): void;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

// Only `lang` is read here; pages read their own parameters. Anything odd is ignored, not refused.
const pageQuerySchema = z.looseObject({
  lang: z.union([z.string(), z.array(z.string())]).optional(),
});
const acceptLanguageSchema = z.string().max(512);
const userAgentSchema = z.string().max(1024);

/** The page's language, normalised to zh-CN or en, and whether `?lang=` or the header chose it. */
function requestLanguageChoice(request: FastifyRequest): {
  language: Language;
  source: LanguageSource;
} {
  const query = pageQuerySchema.safeParse(request.query);
  const lang = query.success ? query.data.lang : undefined;
  const fromQuery = (Array.isArray(lang) ? lang[0] : lang)?.slice(0, 35);
  const header = acceptLanguageSchema.safeParse(request.headers['accept-language']);
  const language = pickLanguage(
    fromQuery,
    parseAcceptLanguage(header.success ? header.data : undefined),
  );
  const queryDecides = fromQuery !== undefined && languageOfTag(fromQuery) !== undefined;
  return { language, source: queryDecides ? 'query' : 'header' };
}

function pathnameOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function finished(document: RenderedDocument): CachedPage {
  return cachedPage(document.status, document.html, contentEtag(document.html), document.csp);
}

/**
 * Serves every page under the base path: pages built ahead as they are, share pages from the
 * cache of rendered pages (rendered once per version of what they show), in-app and not-found
 * pages rendered on request. A page whose rendering fails answers an HTML error page.
 */
function pageSender(options: PageRoutesOptions, statics: StaticPages, cache: RenderedPageCache) {
  const production = options.demo !== true;
  const serverSettings = { demo: !production, publicOrigin: options.publicOrigin };
  const staticPaths = new Set(options.build.renderer.staticPagePaths());
  const sharePages = options.shares
    ? createSharePages({
        settings: options,
        shares: options.shares,
        cache,
        reuseMs: SHARE_REUSE_SECONDS * 1000,
        ...(options.observer ? { observer: options.observer } : {}),
      })
    : undefined;

  /** A static page this build did not prerender: rendered once per language and device class. */
  async function renderedStaticPage(
    path: string,
    language: Language,
    clientClass: string,
    userAgent: string | undefined,
  ): Promise<CachedPage> {
    const key = `static\n${path}\n${language}\n${clientClass}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const built = await renderStaticPage(options.build, path, language, userAgent);
    const page = servedStaticPage(built, serverSettings);
    cache.set(key, page);
    return page;
  }

  async function sendPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const { language, source } = requestLanguageChoice(request);
    const userAgent = userAgentSchema.safeParse(request.headers['user-agent']).data;
    const path = pathnameOf(request.url);
    if (staticPaths.has(path)) {
      const clientClass = options.build.renderer.clientClass(userAgent);
      const built = statics.find(path, language, clientClass);
      if (built) options.observer?.prebuiltServed();
      const page = built ?? (await renderedStaticPage(path, language, clientClass, userAgent));
      return sendFinishedPage(request, reply, page, {
        cacheControl: REVALIDATED_PAGE_CACHE_CONTROL,
        language,
        vary: 'Accept-Language',
      });
    }
    const kind = sharePageKind(path);
    if (kind && sharePages) {
      const url = canonicalShareUrl(path, shareIdOf(request.url), language);
      const shareRequest = { kind, url, language };
      const { version, reader } = await sharePages.version(shareRequest);
      const page = await sharePages.page(version, shareRequest, reader);
      // Inside WeChat, with the settings, the page loads WeChat's JS-SDK: its policy allows it.
      if (
        options.wechat === true &&
        options.build.renderer.clientClass(userAgent).endsWith('.wechat')
      )
        return sendFinishedPage(
          request,
          reply,
          { ...page, csp: withWeChatJsSdk(page.csp) },
          { cacheControl: WECHAT_SHARE_PAGE_CACHE_CONTROL, language },
        );
      return sendFinishedPage(request, reply, page, {
        cacheControl: sharePageCacheControl(page.status, source),
        language,
      });
    }
    const aborted = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) aborted.abort();
    });
    const document = await renderDocument(options, {
      url: request.url,
      language,
      ...(userAgent === undefined ? {} : { userAgent }),
      signal: aborted.signal,
      ...(options.shares ? { shares: options.shares } : {}),
    });
    return sendFinishedPage(request, reply, finished(document), {
      cacheControl: REVALIDATED_PAGE_CACHE_CONTROL,
      language,
      vary: 'Accept-Language',
    });
  }

  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      return await sendPage(request, reply);
    } catch (error) {
      // The database away is no rendering failure: the error handler answers 503 (a page that
      // says to try again soon), and the server recovers by itself when it is back.
      if (error instanceof Error && isDatabaseUnavailable(error)) throw error;
      request.log.error({ err: error }, 'rendering a page failed');
      const { language } = requestLanguageChoice(request);
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
