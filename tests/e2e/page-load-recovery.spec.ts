import type { Page } from '@playwright/test';
import { RELOAD_MARK_KEY } from '../../apps/web/src/lib/chunks/page-load-recovery.ts';
import {
  chunkPattern,
  expect,
  expectNoAxeViolations,
  expectSingleMain,
  expectTitle,
  fullPath,
  gotoRoute,
  navigateInApp,
  routeById,
  samplePath,
  test,
  TEXTS,
  titleOf,
  waitForApp,
  watchRequests,
  websiteRoute,
  withLang,
} from './fixtures.ts';

/** The page whose code the tests make unreachable. */
const target = routeById('goods-share');
const targetChunk = chunkPattern(target.module);

function reloadMark(page: Page): Promise<string | null> {
  return page.evaluate((key) => sessionStorage.getItem(key), RELOAD_MARK_KEY);
}

/**
 * Waits until the page has stopped asking for anything (no request for 500 ms: a reload loop, if
 * there were one, would keep asking), then counts its documents.
 */
async function expectNoFurtherReload(page: Page, documents: () => number, expected: number) {
  await expect.poll(documents).toBe(expected);
  await page.waitForLoadState('networkidle');
  expect(documents()).toBe(expected);
}

test.beforeEach(({ consoleGuard }) => {
  // Chromium reports each request the test makes fail, and the failed module import.
  consoleGuard.allow(/^error: Failed to load resource: net::ERR_FAILED/);
  consoleGuard.allow(/Failed to fetch dynamically imported module/);
  // Known app issue (reported): when the page's code is still missing after the reload,
  // entry-client.tsx renders afresh, but the router still starts from the server's hydration data
  // with an unresolved lazy route and no HydrateFallback, so React Router warns and shows nothing
  // until the import fails. Remove this once the app gives that start a fallback.
  consoleGuard.allow(/^warning: No `HydrateFallback` element provided/);
});

test('a page whose code never loads reloads exactly once, then shows the error screen, whose retry shows the page once the code is back', async ({
  page,
}) => {
  const requests = watchRequests(page);
  await page.route(targetChunk, (route) => route.abort());
  await gotoRoute(page, target, 'zh-CN');

  const text = TEXTS['zh-CN'];
  await expect(page.getByRole('heading', { level: 1, name: text.loadFailed })).toBeVisible();
  await expectNoFurtherReload(page, requests.documents, 2);
  await expectSingleMain(page);
  await expectNoAxeViolations(page);

  await page.unroute(targetChunk);
  await page.getByRole('button', { name: text.retry }).click();
  await expectTitle(page, titleOf(target, 'zh-CN'));
  await waitForApp(page);
  await expect(page.getByRole('heading', { name: text.loadFailed })).toHaveCount(0);
  await expectSingleMain(page);
  expect(requests.documents()).toBe(3);
  expect(await reloadMark(page)).toBeNull();
});

test('a page whose code fails only on the first attempt shows normally after the one automatic reload', async ({
  page,
}) => {
  let documents = 0;
  await page.route(
    (url) => url.pathname === fullPath(target),
    (route) => {
      documents += 1;
      return route.continue();
    },
  );
  await page.route(targetChunk, (route) => (documents === 1 ? route.abort() : route.continue()));
  await gotoRoute(page, target, 'zh-CN');

  await expect.poll(() => documents).toBe(2);
  await waitForApp(page);
  await expectTitle(page, titleOf(target, 'zh-CN'));
  await expect(page.getByRole('heading', { name: TEXTS['zh-CN'].loadFailed })).toHaveCount(0);
  await expectSingleMain(page);
  expect(await reloadMark(page)).toBeNull();
  await expectNoFurtherReload(page, () => documents, 2);
});

test('client-side navigation to a page whose code fails reloads once, then shows the error screen in the page language, and retry recovers', async ({
  page,
}) => {
  const requests = watchRequests(page);
  await page.route(targetChunk, (route) => route.abort());
  await gotoRoute(page, websiteRoute, 'en');
  await waitForApp(page);

  await navigateInApp(page, withLang(samplePath(target), 'en'));
  const text = TEXTS.en;
  await expect(page.getByRole('heading', { level: 1, name: text.loadFailed })).toBeVisible();
  await expect(page).toHaveURL(withLang(samplePath(target), 'en'));
  await expectNoFurtherReload(page, requests.documents, 2);

  await page.unroute(targetChunk);
  await page.getByRole('button', { name: text.retry }).click();
  await expectTitle(page, titleOf(target, 'en'));
  await waitForApp(page);
  await expect(page.getByRole('heading', { name: text.loadFailed })).toHaveCount(0);
  expect(requests.documents()).toBe(3);
});
