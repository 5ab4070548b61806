import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { LANGUAGES, type Language } from '@guquan/contract/language';
import { cachedPage, type CachedPage } from './rendered-page-cache.ts';
import {
  DEMO_MODE_META,
  linkOriginMeta,
  renderDocument,
  type DocumentSettings,
} from './page-document.ts';
import { escapeHtml } from '../http/html-escape.ts';
import { pageContentSecurityPolicy } from './page-csp.ts';
import type { WebBuild } from './web-build.ts';

/**
 * Pages built ahead (the website, every legal page and version): rendered by `npm run build` once
 * per path, language and class of device into `dist/prerendered/`, and sent by the server as they
 * are. The markup is the server's own (renderDocument), so it hydrates exactly as a page rendered
 * on request would.
 */

const manifestSchema = z.object({
  buildId: z.string(),
  pages: z.array(
    z.object({
      path: z.string(),
      language: z.enum(LANGUAGES),
      clientClass: z.string(),
      file: z.string().regex(/^[\w-]+\.html$/),
      /** The page's robots directive (an older legal version's noindex), for X-Robots-Tag. */
      robots: z.string().optional(),
    }),
  ),
});
type PrerenderManifest = z.infer<typeof manifestSchema>;

export function prerenderDir(build: Pick<WebBuild, 'clientDir'>): string {
  return join(dirname(build.clientDir), 'prerendered');
}

/**
 * What the build writes for the site's public origin, which only the server knows (PUBLIC_ORIGIN):
 * the server puts its own in at start-up (withServerSettings). A reserved name (RFC 6761), so a
 * page that escaped it would point nowhere rather than to another site.
 */
export const PRERENDERED_ORIGIN = 'https://public-origin.invalid';

/** A page built ahead: its document and its robots directive (data, not read back from it). */
export interface BuiltPage {
  html: string;
  robots: string | undefined;
}

/**
 * A static page as built ahead, in production form (no demo marker), its canonical and alternate
 * links on PRERENDERED_ORIGIN. Link previews would need the origin in more places: the build
 * refuses a page with them.
 */
export async function renderStaticPage(
  build: WebBuild,
  path: string,
  language: Language,
  userAgent: string | undefined,
): Promise<BuiltPage> {
  const settings: DocumentSettings = { build, publicOrigin: PRERENDERED_ORIGIN, demo: false };
  const document = await renderDocument(settings, {
    url: path,
    language,
    userAgent,
  });
  if (document.status !== 200) throw new Error(`${path} rendered ${document.status}`);
  if (/<meta property="og:/.test(document.html))
    throw new Error(`${path} has preview tags: it cannot be built ahead without the origin`);
  return { html: document.html, robots: document.robots };
}

/** Writes every static page of the build into its prerendered directory; returns the count. */
export async function prerenderStaticPages(build: WebBuild): Promise<number> {
  const dir = prerenderDir(build);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const manifest: PrerenderManifest = { buildId: build.buildId, pages: [] };
  const written = new Set<string>();
  for (const path of build.renderer.staticPagePaths()) {
    for (const language of LANGUAGES) {
      const classes = new Set<string>();
      // One User-Agent per class of device the markup depends on, from the web app itself.
      for (const userAgent of build.renderer.clientClassSamples()) {
        const clientClass = build.renderer.clientClass(userAgent);
        if (classes.has(clientClass)) continue;
        classes.add(clientClass);
        const { html, robots } = await renderStaticPage(build, path, language, userAgent);
        // Named by content: pages that look the same on several devices are one file.
        const file = `${createHash('sha256').update(html).digest('base64url').slice(0, 20)}.html`;
        if (!written.has(file)) await writeFile(join(dir, file), html);
        written.add(file);
        manifest.pages.push({ path, language, clientClass, file, robots });
      }
    }
  }
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  return written.size;
}

/** What a server puts into the pages built ahead: its mode, its public origin, its link domain. */
export interface ServerSettings {
  demo: boolean;
  publicOrigin: string;
  linkOrigin?: string;
}

/**
 * The document as this server sends it: its links on the server's public origin, and in demo mode
 * the demo marker (see renderDocument). Neither touches an inline script or style: the page's CSP
 * hashes stay valid.
 */
export function withServerSettings(
  html: string,
  { demo, publicOrigin, linkOrigin }: ServerSettings,
): string {
  // Only where renderDocument wrote the origin: at the start of an attribute value.
  const located = html.replaceAll(`"${PRERENDERED_ORIGIN}/`, `"${escapeHtml(publicOrigin)}/`);
  // Where renderDocument puts them: first in the head marker, which follows the title.
  const markers = (demo ? DEMO_MODE_META : '') + (linkOrigin ? linkOriginMeta(linkOrigin) : '');
  return markers
    ? located.replace(/<\/title>(\s*)/, (_match, space: string) => `</title>${space}${markers}`)
    : located;
}

/** A page built ahead, ready to send: with this server's settings, its ETag and its CSP. */
export function servedStaticPage(built: BuiltPage, settings: ServerSettings): CachedPage {
  const html = withServerSettings(built.html, settings);
  return cachedPage(
    200,
    html,
    contentEtag(html),
    pageContentSecurityPolicy(html, !settings.demo),
    built.robots,
  );
}

export interface StaticPages {
  find(path: string, language: Language, clientClass: string): CachedPage | undefined;
  readonly count: number;
}

export const NO_STATIC_PAGES: StaticPages = { find: () => undefined, count: 0 };

/** A page's ETag: the version of exactly these bytes. */
export function contentEtag(html: string): string {
  return `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
}

/**
 * The build's prerendered pages, read once at start-up. Missing, or made for another build: none
 * (the server then renders those pages on request, as before, and says so in its log).
 */
export async function loadStaticPages(
  build: WebBuild,
  settings: ServerSettings,
): Promise<StaticPages> {
  const dir = prerenderDir(build);
  let manifest: PrerenderManifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
  } catch {
    return NO_STATIC_PAGES;
  }
  if (manifest.buildId !== build.buildId) return NO_STATIC_PAGES;
  const files = new Map<string, CachedPage>();
  const pages = new Map<string, CachedPage>();
  for (const entry of manifest.pages) {
    let page = files.get(entry.file);
    if (!page) {
      const html = await readFile(join(dir, entry.file), 'utf8');
      page = servedStaticPage({ html, robots: entry.robots }, settings);
      files.set(entry.file, page);
    }
    pages.set(staticPageKey(entry.path, entry.language, entry.clientClass), page);
  }
  return {
    find: (path, language, clientClass) => pages.get(staticPageKey(path, language, clientClass)),
    count: files.size,
  };
}

function staticPageKey(path: string, language: Language, clientClass: string): string {
  return `${path}\n${language}\n${clientClass}`;
}
