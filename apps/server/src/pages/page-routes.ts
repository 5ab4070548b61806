import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseAcceptLanguage, pickLanguage, type Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { pageAssets } from './page-assets.ts';
import { fillTemplate } from './html-document.ts';
import type { WebBuild } from './web-build.ts';
import { headTags } from './page-head.ts';
import type { ShareReader } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';

export interface PageRoutesOptions {
  build: WebBuild;
  /** The origin visitors reach the site at: previews need absolute URLs. */
  publicOrigin: string;
  /** Reads shares for the share pages; without it they render as not found. */
  shares?: ShareReader;
  /** In demo mode pages say so, and in-app pages opened in a browser load the bridge simulator. */
  demo?: boolean;
}

/** The marker in-app pages look for before loading the bridge simulator (demo mode only). */
const DEMO_MODE_META = '<meta name="guquan-mode" content="demo">';

const SITE_NAMES: Readonly<Record<Language, string>> = { 'zh-CN': '谷圈', en: 'goods circle' };

// Only `lang` is read here; pages read their own parameters. Anything odd is ignored, not refused.
const pageQuerySchema = z.looseObject({
  lang: z.union([z.string(), z.array(z.string())]).optional(),
});
const acceptLanguageSchema = z.string().max(512);
const userAgentSchema = z.string().max(1024);

function requestLanguage(request: FastifyRequest): Language {
  const query = pageQuerySchema.safeParse(request.query);
  const lang = query.success ? query.data.lang : undefined;
  const header = acceptLanguageSchema.safeParse(request.headers['accept-language']);
  return pickLanguage(
    (Array.isArray(lang) ? lang[0] : lang)?.slice(0, 35),
    parseAcceptLanguage(header.success ? header.data : undefined),
  );
}

/** Renders the page for the request's URL: the route's markup, title, language and status. */
async function sendPage(
  { build, publicOrigin, shares, demo }: PageRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const language = requestLanguage(request);
  const nonce = reply.cspNonce.script;
  const aborted = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) aborted.abort();
  });
  // A read that failed because the database is away is not the page's error to show (the
  // router would render its error page as a 500): the error handler answers 503 instead.
  let unavailable: Error | undefined;
  const watched: ShareReader | undefined = shares && {
    read: <K extends ShareKind>(kind: K, id: unknown) =>
      shares.read(kind, id).catch((error: unknown) => {
        if (error instanceof Error && isDatabaseUnavailable(error)) unavailable = error;
        throw error;
      }),
  };
  const render = () =>
    build.renderer.renderPage({
      url: request.url,
      language,
      nonce,
      userAgent: userAgentSchema.safeParse(request.headers['user-agent']).data,
      signal: aborted.signal,
      ...(watched ? { shares: watched } : {}),
    });
  let page: Awaited<ReturnType<typeof render>>;
  try {
    page = await render();
  } catch (error) {
    throw unavailable ?? error;
  }
  if (unavailable !== undefined) throw unavailable;
  const assets = pageAssets(build, page.modules, `${BASE_PATH}/`, reply.cspNonce);
  const html = fillTemplate(build.template, {
    language,
    title: page.title,
    head:
      (demo ? DEMO_MODE_META : '') +
      headTags(page.head, {
        title: page.title,
        origin: publicOrigin,
        url: request.url,
        siteName: SITE_NAMES[language],
      }) +
      assets.head,
    scripts: assets.scripts,
    appHtml: page.html,
    nonce,
  });
  return (
    reply
      .code(page.status)
      .type('text/html; charset=utf-8')
      // Revalidated on every visit (each response has its own nonce), yet allowed in the
      // back-forward cache, which no-store would rule out.
      .header('cache-control', 'no-cache')
      .header('content-language', language)
      .header('vary', 'Accept-Language')
      .send(html)
  );
}

export function pageRoutes(
  app: FastifyInstance,
  options: PageRoutesOptions,
  done: () => void,
): void {
  const toWebsite = (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`${BASE_PATH}/website${query}`, 302);
  };
  app.get('/', toWebsite);
  app.get(BASE_PATH, toWebsite);
  app.get(`${BASE_PATH}/`, toWebsite);
  app.get(`${BASE_PATH}/*`, (request, reply) => sendPage(options, request, reply));
  done();
}
