/// <reference lib="dom" />
/**
 * What every end-to-end test shares: the route table (the only list of routes), a guard that
 * fails a test on any console error or warning or uncaught page error (hydration mismatches
 * included), and small helpers to open routes and navigate inside the app.
 */
import { readFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import {
  expect,
  test as base,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type Response,
} from '@playwright/test';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { demoPageQuery } from '../../apps/server/src/demo/seed/demo-pages.ts';
import {
  DEFAULT_TITLES,
  fullPath,
  routeTable,
  titleOf,
  type RouteEntry,
  type RouteId,
  type Titles,
} from '../../apps/web/src/config/route-table.ts';

export { expect };
export { BASE_PATH, DEFAULT_TITLES, fullPath, titleOf };

declare global {
  interface Window {
    /** Set by a test before a client-side navigation; a new document would lose it. */
    e2eMarker?: number;
  }
}

export type Language = keyof Titles;
export const LANGUAGES: readonly Language[] = ['zh-CN', 'en'];

/** Every route that names a page (all but the not-found route `*`). */
type PageRoute = Extract<(typeof routeTable)[number], { titles: Titles }>;
export const pageRoutes: readonly PageRoute[] = routeTable.filter(
  (entry): entry is PageRoute => 'titles' in entry,
);

export function routeById(id: RouteId): RouteEntry {
  const entry = routeTable.find((route) => route.id === id);
  if (!entry) throw new Error(`No route ${id} in the route table`);
  return entry;
}

export const websiteRoute = routeById('website');
export const notFoundRoute = routeById('not-found');
/** A path under the base path that no route names. */
export const UNKNOWN_PATH = `${BASE_PATH}/no-such-page`;

/** The shell's own texts, as the product defines them. */
export const TEXTS = {
  'zh-CN': {
    notFound: '页面不存在',
    loadFailed: '页面加载失败',
    retry: '重试',
    toWebsite: '前往谷圈官网',
  },
  en: {
    notFound: 'Page not found',
    loadFailed: 'The page could not be loaded',
    retry: 'Try again',
    toWebsite: 'Go to the Goods Circle website',
  },
} as const satisfies Record<Language, Record<string, string>>;

export function withLang(path: string, language: Language): string {
  return `${path}${path.includes('?') ? '&' : '?'}lang=${language}`;
}

export { DEMO_IDS };

/** The route's path with the query that shows its page, e.g. a share page with a demo item. */
export function samplePath(entry: RouteEntry): string {
  const query = demoPageQuery(entry.path);
  return query ? `${fullPath(entry)}?${query}` : fullPath(entry);
}

function routeUrl(entry: RouteEntry, language: Language): string {
  return withLang(samplePath(entry), language);
}

/** Opens a URL as a first load and returns the response of its document. */
export async function open(page: Page, url: string): Promise<Response> {
  const response = await page.goto(url);
  if (!response) throw new Error(`No response for ${url}`);
  return response;
}

export function gotoRoute(page: Page, entry: RouteEntry, language: Language): Promise<Response> {
  return open(page, routeUrl(entry, language));
}

/**
 * Waits until React has taken over the page: its <main> and every control in it belong to the
 * rendered tree (each Suspense boundary hydrated, so a tap reaches its handler). On a share
 * page, also until every module it has asked for has come (the share pages' route chunk among
 * its resources means a share page: other pages' later code, the demo's simulator, may share the
 * share pages' other chunks). The tap code (open-in-app/app-taps.ts) has no chunk of its own: it
 * starts with the page.
 */
export async function waitForApp(page: Page): Promise<void> {
  const hydrated = () =>
    page.waitForFunction(() => {
      const main = document.querySelector('#root main');
      const hydrated = (element: Element) =>
        Object.keys(element).some((key) => key.startsWith('__reactProps$'));
      // A share page starts React on the visitor's first intent
      // (docs/decisions/0031-share-pages-start-without-react.md): it says when it waits for one.
      if (document.documentElement.dataset.appStart === 'on-intent') return 'intent';
      // React hydrates a Suspense boundary (the share page's item) after the tree around it: on a
      // busy machine, a tap in between may reach a button whose handler is not there yet.
      return (
        main !== null &&
        hydrated(main) &&
        [
          ...document.querySelectorAll('#root button, #root input, #root select, #root textarea'),
        ].every(hydrated) &&
        'hydrated'
      );
    });
  if ((await (await hydrated()).jsonValue()) === 'intent') {
    // An intent no page acts on: a key that types nothing.
    await page.keyboard.press('Shift');
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.appStart))
      .not.toBe('on-intent');
    await hydrated();
  }
  await page.waitForFunction((sharePages) => {
    const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
    if (!loaded.some((name) => new URL(name).pathname.match(new RegExp(sharePages)))) return true;
    // Every module the page has asked for so far is here (the tap code's own imports included).
    const asked = [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')];
    return asked.every((link) => loaded.includes(link.href));
  }, chunkPattern('share-pages').source);
}

/** Navigates inside the app, as React Router's browser history does, without a new document. */
export async function navigateInApp(page: Page, url: string): Promise<void> {
  await page.evaluate((target) => {
    history.pushState(null, '', target);
    dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

export async function setMarker(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.e2eMarker = 1;
  });
}

/** True while the document that setMarker marked is still the page's document. */
export function hasMarker(page: Page): Promise<boolean> {
  return page.evaluate(() => window.e2eMarker === 1);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

let routeChunks: Readonly<Record<string, ManifestChunk>> | undefined;

function webManifest(): Readonly<Record<string, ManifestChunk>> {
  routeChunks ??= JSON.parse(
    readFileSync(
      new URL('../../apps/web/dist/client/.vite/manifest.json', import.meta.url),
      'utf8',
    ),
  ) as Record<string, ManifestChunk>;
  return routeChunks;
}

/**
 * The stylesheets the demo's bridge simulator brings with its panel (its own, and those of the
 * chunks it imports: on a page that is not a share page, the share pages' chunk, whose code it
 * shares: apps/web/build/page-parts-chunks.ts), as paths under the base path.
 */
export function simulatorStylesheets(): Set<string> {
  const manifest = webManifest();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  for (const key of Object.keys(manifest)) if (/simulator/.test(key)) visit(key);
  return new Set(
    [...seen].flatMap((key) => (manifest[key]?.css ?? []).map((file) => `${BASE_PATH}/${file}`)),
  );
}

/**
 * The URL of a route module's chunk (`/anime_merch_web/assets/<module>-<hash>.js`), exactly as the
 * web build's manifest names it: a shared chunk may carry the same name (the contract's
 * membership.ts, which the bridge simulator also imports, is `membership-<hash>.js` too).
 */
export function chunkPattern(module: string): RegExp {
  const file = webManifest()[`src/app/routes/${module}.tsx`]?.file;
  if (!file) throw new Error(`The web build has no chunk for the route module ${module}`);
  return new RegExp(`${escapeRegExp(BASE_PATH)}/${escapeRegExp(file)}$`);
}

const routeModules = [...new Set(routeTable.map((entry) => entry.module))];

/** The route module whose chunk this URL is, if it is one. */
function routeModuleOfUrl(url: string): string | undefined {
  const { pathname } = new URL(url);
  return routeModules.find((module) => chunkPattern(module).test(pathname));
}

/** Records which route modules' chunks the page requests, and how many documents it loads. */
export function watchRequests(page: Page): {
  modules: Set<string>;
  stylesheets: string[];
  documents: () => number;
} {
  const modules = new Set<string>();
  const stylesheets: string[] = [];
  let documents = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents += 1;
    if (request.resourceType() === 'stylesheet') stylesheets.push(new URL(request.url()).pathname);
    const module = routeModuleOfUrl(request.url());
    if (module) modules.add(module);
  });
  return { modules, stylesheets, documents: () => documents };
}

/**
 * Expects the document title. Waits in the page (every animation frame) rather than with the
 * retrying assertion's coarser steps: client-side navigations take milliseconds.
 */
export async function expectTitle(page: Page, title: string): Promise<void> {
  await page
    .waitForFunction((expected) => document.title === expected, title, { timeout: 20_000 })
    .catch(() => undefined); // the assertion below reports what the title is instead
  await expect(page).toHaveTitle(title, { timeout: 1 });
}

/** The page's cumulative layout shift so far. */
export function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            total += (entry as PerformanceEntry & { value: number }).value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => {
          resolve(total);
        }, 300);
      }),
  );
}

export async function expectSingleMain(page: Page): Promise<void> {
  await expect(page.locator('main')).toHaveCount(1);
}

/**
 * An open modal dialog leaves nothing else reachable: it is the browser's modal dialog, every
 * control outside it is inert (keyboard, pointer and screen reader), and Tab stays inside.
 */
export async function expectPageBehindInert(page: Page, dialog: Locator): Promise<void> {
  const state = await dialog.evaluate((element) => ({
    modal: element.matches(':modal'),
    reachable: [
      ...document.body.querySelectorAll('a[href], button, input, select, textarea, [tabindex]'),
    ]
      .filter((control) => !element.contains(control) && !control.closest('[inert]'))
      .map((control) => control.outerHTML.slice(0, 120)),
    // Text too: what a screen reader could still read in the main content.
    mainNotInert: [...document.querySelectorAll('main *')]
      .filter((part) => !part.contains(element) && !element.contains(part))
      .filter((part) => !part.closest('[inert]'))
      .map((part) => part.outerHTML.slice(0, 120)),
  }));
  expect(state, 'the page behind the dialog is inert').toEqual({
    modal: true,
    reachable: [],
    mainNotInert: [],
  });
  for (let step = 0; step < 6; step += 1) {
    await page.keyboard.press('Tab');
    expect(
      await dialog.evaluate((element) => element.contains(document.activeElement)),
      'Tab stays inside the dialog',
    ).toBe(true);
  }
}

/** Axe on the page, or on the part `include` selects (e.g. an open modal dialog). */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  const builder = new AxeBuilder({ page });
  const results = await (include ? builder.include(include) : builder).analyze();
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
  expect(violations, `axe violations on ${page.url()}`).toEqual([]);
}

interface ConsoleGuard {
  /** Messages matching this are expected in this test (e.g. from a chunk it made fail). */
  allow(pattern: RegExp): void;
  /** Watches a context the test created itself. */
  watch(context: BrowserContext): void;
}

interface Fixtures {
  consoleGuard: ConsoleGuard;
  /** A new browser context (the project's device, then these options), watched and closed. */
  openContext: (options: BrowserContextOptions) => Promise<BrowserContext>;
}

export const test = base.extend<Fixtures>({
  consoleGuard: [
    async ({ context }, use) => {
      const allowed: RegExp[] = [];
      const seen: string[] = [];
      const watch = (watched: BrowserContext) => {
        watched.on('console', (message) => {
          const type = message.type();
          if (type !== 'error' && type !== 'warning') return;
          seen.push(`${type}: ${message.text()} (${message.location().url})`);
        });
        watched.on('weberror', (error) => {
          seen.push(`page error: ${error.error().message}`);
        });
      };
      watch(context);
      await use({
        allow: (pattern) => {
          allowed.push(pattern);
        },
        watch,
      });
      const unexpected = seen.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect(unexpected, 'console errors, warnings and page errors').toEqual([]);
    },
    { auto: true },
  ],

  openContext: async ({ browser, consoleGuard }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options) => {
      const context = await browser.newContext(options);
      consoleGuard.watch(context);
      contexts.push(context);
      return context;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});
