import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { LegalDocumentRef, RouteEntry } from '../../apps/web/src/config/route-table.ts';
import type { LegalDocument } from '../../apps/web/src/features/legal/legal-document.ts';
import { renderLegalMarkdown } from '../../apps/web/build/legal-markdown.ts';
import {
  expect,
  expectSingleMain,
  expectTitle,
  fullPath,
  hasMarker,
  LANGUAGES,
  type Language,
  open,
  pageRoutes,
  setMarker,
  test,
  titleOf,
  waitForApp,
  websiteRoute,
  withLang,
} from './fixtures.ts';

/**
 * The legal pages (PRODUCT.md "Legal pages"), every one of them taken from the route table: the
 * server's HTML already carries the whole document, the app takes it over without a second copy,
 * the table of contents and deep links land on their sections, older versions point to the newest,
 * the chrome follows the language while the text stays Chinese, nothing scrolls sideways at 320 px,
 * and paper gets the document without the page's controls.
 */

type LegalRoute = RouteEntry & { readonly legal: LegalDocumentRef };
const legalRoutes: readonly LegalRoute[] = pageRoutes.filter(
  (entry): entry is (typeof pageRoutes)[number] & LegalRoute => 'legal' in entry,
);

// What each route must show: its Markdown, rendered as the build renders it, from the content.
const contentDir = new URL('../../content/', import.meta.url);
const facts: unknown = JSON.parse(readFileSync(new URL('site.json', contentDir), 'utf8'));
const documents = new Map<string, LegalDocument>();
function documentOf({ document, version }: LegalDocumentRef): LegalDocument {
  const key = `${document}/${version}`;
  let rendered = documents.get(key);
  if (!rendered) {
    const file = new URL(`legal/${key}.md`, contentDir);
    rendered = renderLegalMarkdown(readFileSync(file, 'utf8'), facts, {
      document,
      version,
      file: file.pathname,
    });
    documents.set(key, rendered);
  }
  return rendered;
}

interface Version {
  version: string;
  /** The first route of the table that shows this version. */
  route: LegalRoute;
}

/** A document's versions, newest first, each at the first route that shows it. */
function versionsOf(document: string): Version[] {
  const versions: Version[] = [];
  for (const route of legalRoutes) {
    if (route.legal.document !== document) continue;
    if (!versions.some((known) => known.version === route.legal.version)) {
      versions.push({ version: route.legal.version, route });
    }
  }
  return versions.sort((a, b) => b.version.localeCompare(a.version));
}

function latestOf(document: string): Version {
  const latest = versionsOf(document)[0];
  if (!latest) throw new Error(`No version of ${document}`);
  return latest;
}

/** Routes that show a version some newer version of the same document replaced. */
const supersededRoutes = legalRoutes.filter(
  (route) => latestOf(route.legal.document).version !== route.legal.version,
);

/** The page's own words around a document, as the product words them. */
const CHROME = {
  'zh-CN': {
    home: '谷圈官网',
    effective: '生效日期',
    updated: '更新日期',
    summary: '本版摘要',
    contents: '目录',
    versions: '版本记录',
    current: '当前版本',
    viewing: '正在查看',
    backToTop: '回到顶部',
  },
  en: {
    home: 'Goods Circle website',
    effective: 'Effective',
    updated: 'Updated',
    summary: 'Summary of this version',
    contents: 'Contents',
    versions: 'Versions',
    current: 'current version',
    viewing: 'you are here',
    backToTop: 'Back to top',
  },
} as const satisfies Record<Language, Record<string, string>>;

/** "The Chinese text is the authoritative one": the English page says so. */
const AUTHORITATIVE = /Chinese text[^.]*authoritative/;

/** A date as a reader of the language writes it (an independent check of the page's own). */
function dateText(isoDate: string, language: Language): string {
  // English as in the US (issue 39): "October 15, 2025", as the in-app pages write it.
  return new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'zh-CN', {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${isoDate}T00:00:00Z`));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Matches this text, HTML-escaped, as the whole content of an element. */
function htmlText(text: string): string {
  return escapeRegExp(escapeHtml(text));
}

/** The server's HTML of a legal route, with no script run: everything the document says. */
function expectDocumentInHtml(html: string, doc: LegalDocument, language: Language): void {
  const chrome = CHROME[language];
  const mains = html.match(/<main[\s>][\s\S]*?<\/main>/g) ?? [];
  expect(mains, 'one <main> in the server HTML').toHaveLength(1);
  const main = mains[0] ?? '';
  expect(main).toMatch(new RegExp(`<h1 [^>]*>${htmlText(doc.title)}</h1>`));
  for (const [label, date] of [
    [chrome.effective, doc.effective],
    [chrome.updated, doc.updated],
  ] as const) {
    expect(main).toMatch(
      new RegExp(
        `<dt>${htmlText(label)}</dt><dd><time [^>]*>${htmlText(dateText(date, language))}</time>`,
      ),
    );
  }
  expect(main).toContain(`>${escapeHtml(doc.summary)}</p>`);
  for (const entry of doc.toc) {
    expect(main).toMatch(
      new RegExp(`<a href="#${escapeRegExp(entry.id)}"[^>]*>${htmlText(entry.text)}</a>`),
    );
  }
  // The text itself, exactly as the build rendered it.
  expect(main).toContain(doc.html);
  expect(AUTHORITATIVE.test(main), 'the "authoritative in Chinese" notice').toBe(language === 'en');
}

/** The text content of some HTML, as the browser parses it. */
function textOfHtml(page: Page, html: string): Promise<string> {
  return page.evaluate((source) => {
    const template = document.createElement('template');
    template.innerHTML = source;
    return template.content.textContent;
  }, html);
}

/** After hydration: the same document, once, with the chrome in the page's language. */
async function expectDocumentShown(page: Page, doc: LegalDocument, language: Language) {
  const chrome = CHROME[language];
  await expectSingleMain(page);
  const article = page.locator('main article');
  await expect(article).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(doc.title);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  const dates = article.locator('dl');
  await expect(dates.locator('dt')).toHaveText([chrome.effective, chrome.updated]);
  await expect(dates.locator('time')).toHaveText([
    dateText(doc.effective, language),
    dateText(doc.updated, language),
  ]);
  await expect(page.getByRole('link', { name: chrome.home, exact: true })).toHaveAttribute(
    'href',
    fullPath(websiteRoute),
  );
  const summary = page.getByRole('region', { name: chrome.summary });
  await expect(summary).toContainText(doc.summary);
  await expect(summary.locator('p')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('link', { name: chrome.backToTop })).toHaveAttribute(
    'href',
    '#document-title',
  );

  // The document text stays Chinese, whatever the page's language.
  const body = article.locator(':scope > div[lang="zh-CN"]');
  await expect(body).toHaveCount(1);
  expect(await body.textContent()).toBe(await textOfHtml(page, doc.html));

  const notices = page.getByRole('note').filter({ hasText: AUTHORITATIVE });
  if (language === 'en') {
    await expect(notices).toHaveCount(1);
    await expect(notices).toBeVisible();
    await expect(notices).toHaveAttribute('lang', 'en');
  } else {
    await expect(notices).toHaveCount(0);
  }
}

/** The version list: each version once, newest first, the others linked to their routes. */
async function expectVersionList(page: Page, route: LegalRoute, language: Language) {
  const chrome = CHROME[language];
  const versions = versionsOf(route.legal.document);
  const doc = documentOf(route.legal);
  const items = page.getByRole('region', { name: chrome.versions }).getByRole('listitem');
  await expect(items).toHaveCount(versions.length);
  for (const [index, { version, route: versionRoute }] of versions.entries()) {
    const item = items.nth(index);
    const label = `${doc.title} · ${dateText(version, language)}`;
    const viewing = version === route.legal.version;
    if (viewing) {
      await expect(item.getByRole('link')).toHaveCount(0);
      await expect(item.locator('[aria-current="page"]')).toHaveText(label);
      await expect(item).toContainText(chrome.viewing);
    } else {
      await expect(item.getByRole('link')).toHaveText(label);
      await expect(item.getByRole('link')).toHaveAttribute('href', fullPath(versionRoute));
      await expect(item).not.toContainText(chrome.viewing);
    }
    if (index === 0) await expect(item).toContainText(chrome.current);
    else await expect(item).not.toContainText(chrome.current);
  }
}

function hashOf(page: Page): string {
  return decodeURIComponent(new URL(page.url()).hash.slice(1));
}

/** Each table-of-contents link lands on its section, in the same document. */
async function expectTocLinksLand(page: Page, doc: LegalDocument, language: Language) {
  const links = page.getByRole('navigation', { name: CHROME[language].contents }).getByRole('link');
  await expect(links).toHaveText(doc.toc.map((entry) => entry.text));
  await setMarker(page);
  // Backwards, so that each click has to move the page (the last sections may share a screen).
  // A fragment link moves the page at once: one look after each click tells where it landed.
  for (const [index, entry] of [...doc.toc.entries()].reverse()) {
    await links.nth(index).click();
    const landed = await page.evaluate((id) => {
      const target = document.getElementById(id);
      const box = target?.getBoundingClientRect();
      return {
        hash: decodeURIComponent(location.hash.slice(1)),
        text: target?.textContent,
        inView: box !== undefined && box.bottom > 0 && box.top < innerHeight,
      };
    }, entry.id);
    expect(landed, `contents link ${entry.text}`).toEqual({
      hash: entry.id,
      text: entry.text,
      inView: true,
    });
  }
  expect(await hasMarker(page), 'the links stay in the same document').toBe(true);
}

/** True when the page is no wider than its window. */
function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  );
}

async function expectNoSidewaysScrollAt320(page: Page): Promise<void> {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 320, height: viewport?.height ?? 700 });
  // Wait for the layout at 320 px: its width, and the root font size (1/10 of it) in effect.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const html = document.documentElement;
        return `${html.clientWidth} ${getComputedStyle(html).fontSize}`;
      }),
    )
    .toBe('320 32px');
  expect(await fitsWidth(page), `no horizontal scrolling at 320 px on ${page.url()}`).toBe(true);
  if (viewport) await page.setViewportSize(viewport);
}

test.describe('every legal route', () => {
  for (const route of legalRoutes) {
    const doc = documentOf(route.legal);
    const lastSection = doc.toc.at(-1);

    test(`${route.path} (${route.legal.document} ${route.legal.version}): whole document in the server HTML and after hydration in both languages, versions, contents links, deep link, 320 px`, async ({
      page,
    }) => {
      for (const language of LANGUAGES) {
        // The Chinese page opens on a deep link to its last section.
        const deepLink = language === 'zh-CN' && lastSection ? `#${lastSection.id}` : '';
        const response = await open(page, `${withLang(fullPath(route), language)}${deepLink}`);
        expect(response.status()).toBe(200);
        expectDocumentInHtml(await response.text(), doc, language);

        await waitForApp(page);
        await expectTitle(page, titleOf(route, language));
        if (lastSection && deepLink) {
          await expect(page.locator(`[id="${lastSection.id}"]`)).toBeInViewport();
          expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
        }
        await expectDocumentShown(page, doc, language);
        await expectVersionList(page, route, language);
        if (language === 'zh-CN') await expectTocLinksLand(page, doc, language);
        await expectNoSidewaysScrollAt320(page);
      }
    });
  }
});

test.describe('older versions', () => {
  for (const route of supersededRoutes) {
    const latest = latestOf(route.legal.document);
    const latestDoc = documentOf({ document: route.legal.document, version: latest.version });

    test(`${route.path} points to the version of ${latest.version}, and the version list leads back`, async ({
      page,
    }) => {
      await open(page, withLang(fullPath(route), 'zh-CN'));
      await waitForApp(page);
      await setMarker(page);
      const notice = page.getByRole('note').filter({ has: page.getByRole('link') });
      await expect(notice).toHaveCount(1);
      await expect(notice).toContainText(dateText(route.legal.version, 'zh-CN'));
      const link = notice.getByRole('link');
      await expect(link).toHaveAttribute('href', fullPath(latest.route));
      await expect(link).toContainText(dateText(latest.version, 'zh-CN'));

      await link.click();
      await expect(page).toHaveURL(fullPath(latest.route));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(latestDoc.title);
      await expect(page.locator('article dl time').first()).toHaveText(
        dateText(latestDoc.effective, 'zh-CN'),
      );
      await expectTitle(page, titleOf(latest.route, 'zh-CN'));
      await expect(page.getByRole('note')).toHaveCount(0);
      await expectSingleMain(page);
      await expectVersionList(page, latest.route, 'zh-CN');
      expect(await page.evaluate(() => scrollY), 'a new page starts at its top').toBe(0);

      // And back, through the new version's list of versions.
      await page
        .getByRole('region', { name: CHROME['zh-CN'].versions })
        .getByRole('link', { name: dateText(route.legal.version, 'zh-CN') })
        .click();
      await expect(page).toHaveURL(fullPath(route));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        documentOf(route.legal).title,
      );
      await expect(page.getByRole('note').filter({ has: page.getByRole('link') })).toHaveCount(1);
      expect(await hasMarker(page), 'both moves happen inside the app').toBe(true);
    });
  }
});

test('without JavaScript a legal page shows its whole document, and its links work', async ({
  openContext,
}) => {
  const route = supersededRoutes[0] ?? legalRoutes[0];
  if (!route) throw new Error('No legal route in the route table');
  const doc = documentOf(route.legal);
  const page = await (await openContext({ javaScriptEnabled: false })).newPage();
  await open(page, withLang(fullPath(route), 'zh-CN'));
  expect(await page.evaluate(() => document.documentElement.style.fontSize), 'no script ran').toBe(
    '',
  );
  await expect(page).toHaveTitle(titleOf(route, 'zh-CN'));
  await expectDocumentShown(page, doc, 'zh-CN');
  await expectVersionList(page, route, 'zh-CN');
  const latest = latestOf(route.legal.document);
  if (latest.version !== route.legal.version) {
    await expect(
      page.getByRole('note').getByRole('link', { name: dateText(latest.version, 'zh-CN') }),
    ).toHaveAttribute('href', fullPath(latest.route));
  }
  const section = doc.toc.at(-1);
  if (section) {
    await page
      .getByRole('navigation', { name: CHROME['zh-CN'].contents })
      .getByRole('link', { name: section.text, exact: true })
      .click();
    await expect.poll(() => hashOf(page)).toBe(section.id);
    await expect(page.locator(`[id="${section.id}"]`)).toBeInViewport();
  }
  expect(await fitsWidth(page)).toBe(true);
  await expectNoSidewaysScrollAt320(page);
});

test('printed, a legal page keeps the document and drops the controls around it', async ({
  page,
}) => {
  const route = supersededRoutes[0] ?? legalRoutes[0];
  if (!route) throw new Error('No legal route in the route table');
  const doc = documentOf(route.legal);
  const chrome = CHROME['zh-CN'];
  await open(page, withLang(fullPath(route), 'zh-CN'));
  await waitForApp(page);
  const toc = page.getByRole('navigation', { name: chrome.contents });
  const home = page.getByRole('link', { name: chrome.home, exact: true });
  const backToTop = page.getByRole('link', { name: chrome.backToTop });
  const kept = [
    page.getByRole('heading', { level: 1 }),
    page.locator('article dl'),
    page.getByRole('region', { name: chrome.summary }),
    page.locator('main article > div[lang="zh-CN"]'),
    page.getByRole('region', { name: chrome.versions }),
  ];
  for (const locator of [toc, home, backToTop, ...kept]) await expect(locator).toBeVisible();

  await page.emulateMedia({ media: 'print' });
  for (const locator of [toc, home, backToTop]) await expect(locator).toBeHidden();
  for (const locator of kept) await expect(locator).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(doc.title);
  if (supersededRoutes.includes(route)) await expect(page.getByRole('note')).toBeVisible();

  await page.emulateMedia({ media: 'screen' });
  for (const locator of [toc, home, backToTop]) await expect(locator).toBeVisible();
});
