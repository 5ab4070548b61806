import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import type { LegalDocumentRef, RouteEntry } from '../../apps/web/src/config/route-table.ts';
import {
  expect,
  expectNoAxeViolations,
  expectPageBehindInert,
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
 * The official website (PRODUCT.md "Official website"): a phone layout and a real wide one, the
 * visitor's own store first, the "open in browser" guide inside WeChat, the company's filing
 * number and the agreements in the footer. Every expected text, link and number is read from the
 * content files the page is made from (content/website.json, content/site.json) or from the route table.
 */

type Store = 'ios' | 'android';

interface WebsiteTexts {
  hero: { title: string; imageAlt: string };
  download: Record<Store, { label: string }> & {
    heading: string;
    inAppNotice: string;
    showGuide: string;
    inAppNames: { wechat: string };
  };
  guide: {
    title: string;
    steps: string[];
    hint: string;
    linkLabel: string;
    copy: string;
    copied: string;
    close: string;
  };
  footer: { filingLabel: string; agreementsLabel: string };
}

interface Site {
  company: { icp: string; icpUrl: string };
  download: Record<Store, { url: string }>;
  website: Record<Language, WebsiteTexts>;
}

const site = {
  ...(JSON.parse(readFileSync(new URL('../../content/site.json', import.meta.url), 'utf8')) as Omit<
    Site,
    'website'
  >),
  website: JSON.parse(
    readFileSync(new URL('../../content/website.json', import.meta.url), 'utf8'),
  ) as Site['website'],
};

/** The filing site every ICP number must link to (MIIT's). */
const ICP_FILING_SITE = 'https://beian.miit.gov.cn/';
const WECHAT = 'MicroMessenger/8.0.47';
const HEIGHT = 800;

type LegalRoute = RouteEntry & { readonly legal: LegalDocumentRef };
const legalRoutes: readonly LegalRoute[] = pageRoutes.filter(
  (entry): entry is (typeof pageRoutes)[number] & LegalRoute => 'legal' in entry,
);

/** For each legal document, the first route that shows its newest version: what the footer links. */
const currentAgreements: readonly LegalRoute[] = [
  ...new Set(legalRoutes.map((route) => route.legal.document)),
].map((document) => {
  const routes = legalRoutes.filter((route) => route.legal.document === document);
  const newest = routes
    .map((route) => route.legal.version)
    .sort()
    .at(-1);
  const route = routes.find((candidate) => candidate.legal.version === newest);
  if (!route) throw new Error(`No route shows ${document}`);
  return route;
});

function storesFor(userAgent: string | undefined): readonly [Store, Store] {
  return /Android/.test(userAgent ?? '') ? ['android', 'ios'] : ['ios', 'android'];
}

async function openWebsite(page: Page, language: Language): Promise<string> {
  const response = await open(page, withLang(fullPath(websiteRoute), language));
  expect(response.status()).toBe(200);
  const html = await response.text();
  await waitForApp(page);
  return html;
}

const hero = (page: Page) => page.locator('section[aria-labelledby="hero-title"]');
const heroStoreLinks = (page: Page) => hero(page).locator('a[data-store]');
const downloadStoreLinks = (page: Page) => page.locator('#download a[data-store]');

function storesOf(links: Locator): Promise<string[]> {
  return links.evaluateAll((elements) => elements.map((element) => element.dataset.store ?? ''));
}

/** Where the hero's text and its picture sit relative to each other. */
async function heroArrangement(page: Page): Promise<'side by side' | 'stacked' | 'other'> {
  const copy = await page.locator('#hero-title').locator('..').boundingBox();
  const art = await hero(page).getByRole('img').boundingBox();
  if (!copy || !art) throw new Error('The hero has no text or no picture');
  const overlapsVertically = art.y < copy.y + copy.height && copy.y < art.y + art.height;
  if (art.x >= copy.x + copy.width && overlapsVertically) return 'side by side';
  if (art.y >= copy.y + copy.height) return 'stacked';
  return 'other';
}

function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  );
}

test('phone, 320 px and wide layouts: the hero is stacked on a phone and side by side from 1024 px, nothing scrolls sideways, no axe violations at 1280 px', async ({
  page,
}, testInfo) => {
  await openWebsite(page, 'zh-CN');
  expect(await heroArrangement(page), 'the hero on the phone').toBe('stacked');

  for (const language of LANGUAGES) {
    await page.setViewportSize({ width: 320, height: HEIGHT });
    await openWebsite(page, language);
    expect(await page.evaluate(() => document.documentElement.clientWidth)).toBe(320);
    expect(await fitsWidth(page), `no horizontal scrolling at 320 px in ${language}`).toBe(true);
    expect(await heroArrangement(page)).toBe('stacked');
  }

  await page.setViewportSize({ width: 1280, height: HEIGHT });
  const language: Language = testInfo.project.name === 'iphone' ? 'en' : 'zh-CN';
  await openWebsite(page, language);
  expect(await heroArrangement(page), 'the hero at 1280 px').toBe('side by side');
  expect(await fitsWidth(page)).toBe(true);
  await expectSingleMain(page);
  await expectNoAxeViolations(page);
});

test('the preview shows the three screens its intro promises, two whole ones side by side on a phone, none out of view', async ({
  page,
}) => {
  for (const language of ['zh-CN', 'en'] as const) {
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: HEIGHT });
      await openWebsite(page, language);
      const preview = page.getByRole('region', {
        name: language === 'en' ? 'Screens of the app' : 'App 页面预览',
      });
      await preview.scrollIntoViewIfNeeded();
      const images = preview.getByRole('img');
      // "三个页面看懂谷圈": three screens, each a picture of the real page (a WebP screenshot).
      await expect(images).toHaveCount(3);
      for (const src of await images.evaluateAll((all) =>
        all.map((img) => img.getAttribute('src')),
      )) {
        expect(src).toMatch(/\.webp$/);
      }
      // Each whole inside the page's width: none hidden behind a sideways scroll (issue 39).
      const boxes = await preview.evaluate((box) =>
        [...box.querySelectorAll('li')].map((item) => {
          const rect = item.getBoundingClientRect();
          return { left: rect.left, right: rect.right, top: Math.round(rect.top) };
        }),
      );
      for (const box of boxes) {
        expect(box.left, `${language} ${width} px`).toBeGreaterThanOrEqual(0);
        expect(box.right, `${language} ${width} px`).toBeLessThanOrEqual(width);
      }
      expect(await preview.evaluate((box) => box.scrollWidth - box.clientWidth)).toBe(0);
      // Two side by side on a phone, the third below them.
      const [first, second, third] = boxes;
      expect(first?.top).toBe(second?.top);
      expect(third?.top ?? 0).toBeGreaterThan(first?.top ?? 0);
    }
  }
});

test("the download buttons put the visitor's own platform first, in the server HTML already", async ({
  page,
  userAgent,
}) => {
  const order = storesFor(userAgent);
  const html = await openWebsite(page, 'zh-CN');
  // The hero's two buttons, then the download section's two: each pair in the visitor's order.
  const served = [...html.matchAll(/data-store="(ios|android)"/g)].map((match) => match[1]);
  expect(served).toEqual([...order, ...order]);

  const texts = site.website['zh-CN'];
  for (const links of [heroStoreLinks(page), downloadStoreLinks(page)]) {
    expect(await storesOf(links)).toEqual(order);
    for (const [index, store] of order.entries()) {
      await expect(links.nth(index)).toHaveText(texts.download[store].label);
      await expect(links.nth(index)).toHaveAttribute('href', site.download[store].url);
      await expect(links.nth(index)).not.toHaveAttribute('aria-haspopup', /.*/);
    }
  }
  // Outside an in-app browser there is no guide to open.
  await expect(page.getByRole('button', { name: texts.download.showGuide })).toHaveCount(0);
});

test('inside WeChat a download button opens the "open in browser" guide, whose button copies the link', async ({
  openContext,
  userAgent,
}) => {
  const context = await openContext({
    userAgent: `${userAgent ?? ''} ${WECHAT}`,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const texts = site.website['zh-CN'];
  const wechat = texts.download.inAppNames.wechat;
  const html = await openWebsite(page, 'zh-CN');
  const notice = texts.download.inAppNotice.replaceAll('{app}', wechat);
  expect(html, 'the server already knows it is WeChat').toContain(notice);
  await expect(page.getByText(notice)).toBeVisible();

  const url = page.url();
  const dialog = page.getByRole('dialog', { name: texts.guide.title });
  const first = heroStoreLinks(page).first();
  await expect(first).toHaveAttribute('data-store', storesFor(userAgent)[0]);
  await expect(first).toHaveAttribute('aria-haspopup', 'dialog');
  await first.click();
  await expect(dialog).toBeVisible();
  expect(page.url(), 'the store link is not followed').toBe(url);
  await expect(dialog.getByRole('listitem')).toContainText(texts.guide.steps);
  await expect(dialog).toContainText(texts.guide.hint.replaceAll('{app}', wechat));
  await expect(dialog.getByRole('textbox', { name: texts.guide.linkLabel })).toHaveValue(url);
  await expectNoAxeViolations(page);
  await expectPageBehindInert(page, dialog);

  await dialog.getByRole('button', { name: texts.guide.copy }).click();
  await expect(dialog.getByRole('status')).toHaveText(texts.guide.copied);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  await dialog.getByRole('button', { name: texts.guide.close }).click();
  await expect(dialog).toHaveCount(0);
  await expect(first, 'focus goes back to the button that opened the guide').toBeFocused();

  // The download section's buttons and its "how to open" button open the same guide.
  for (const opener of [
    downloadStoreLinks(page).first(),
    downloadStoreLinks(page).last(),
    page.getByRole('button', { name: texts.download.showGuide }),
  ]) {
    await opener.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
  expect(page.url()).toBe(url);
});

test('the footer carries the ICP filing number, linked to the filing site, and links to every current agreement', async ({
  page,
}) => {
  for (const language of LANGUAGES) {
    const texts = site.website[language];
    await openWebsite(page, language);
    const footer = page.getByRole('contentinfo');
    const icp = footer.getByRole('link', { name: site.company.icp });
    await expect(icp).toHaveAttribute('href', ICP_FILING_SITE);
    await expect(footer).toContainText(texts.footer.filingLabel);

    const agreements = footer
      .getByRole('navigation', { name: texts.footer.agreementsLabel })
      .getByRole('link');
    const links = await agreements.evaluateAll((elements) =>
      elements.map((element) => ({
        href: element.getAttribute('href'),
        text: element.textContent,
      })),
    );
    expect(links.toSorted((a, b) => (a.href ?? '').localeCompare(b.href ?? ''))).toEqual(
      currentAgreements
        .map((route) => ({ href: fullPath(route), text: titleOf(route, language) }))
        .toSorted((a, b) => a.href.localeCompare(b.href)),
    );
  }

  // An agreement opens inside the app, at its top.
  const route = currentAgreements[0];
  if (!route) throw new Error('No legal route in the route table');
  await setMarker(page);
  await page
    .getByRole('contentinfo')
    .getByRole('link', { name: titleOf(route, 'en') })
    .click();
  await expect(page).toHaveURL(fullPath(route));
  await expectTitle(page, titleOf(route, 'en'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectSingleMain(page);
  expect(await page.evaluate(() => scrollY)).toBe(0);
  expect(await hasMarker(page)).toBe(true);
});

test('without JavaScript the website shows its content, its store links and its footer', async ({
  openContext,
  userAgent,
}) => {
  const page = await (await openContext({ javaScriptEnabled: false })).newPage();
  const texts = site.website['zh-CN'];
  await open(page, withLang(fullPath(websiteRoute), 'zh-CN'));
  expect(await page.evaluate(() => document.documentElement.style.fontSize), 'no script ran').toBe(
    '',
  );
  await expect(page).toHaveTitle(titleOf(websiteRoute, 'zh-CN'));
  await expectSingleMain(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.hero.title);
  await expect(page.getByRole('img', { name: texts.hero.imageAlt })).toBeVisible();
  await expect(page.getByRole('heading', { name: texts.download.heading })).toBeVisible();
  const order = storesFor(userAgent);
  expect(await storesOf(downloadStoreLinks(page))).toEqual(order);
  for (const [index, store] of order.entries()) {
    await expect(downloadStoreLinks(page).nth(index)).toHaveAttribute(
      'href',
      site.download[store].url,
    );
  }
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: site.company.icp })).toHaveAttribute(
    'href',
    ICP_FILING_SITE,
  );
  await expect(
    footer.getByRole('navigation', { name: texts.footer.agreementsLabel }).getByRole('link'),
  ).toHaveCount(currentAgreements.length);
  await page.setViewportSize({ width: 320, height: HEIGHT });
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe(
    '32px',
  );
  expect(await fitsWidth(page)).toBe(true);
});
