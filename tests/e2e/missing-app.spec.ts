import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { missingAppTexts } from '../../apps/web/src/features/share/missing-app-sheet/missing-app-texts.ts';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  open,
  test,
  waitForApp,
  withLang,
  type Language,
} from './fixtures.ts';
import { ownServer } from './own-server.ts';

/**
 * Issue 31, sections 1 and 2: the visitor without the app. "Open" leaves for the link domain and
 * comes back (a new page) where the visitor was, with the missing-app sheet; its store tap says
 * the share code was copied, then opens the store; the way back from the store and a reload count
 * no new view: the operators read 1 view and 1 tap. On a server of its own per project (its
 * funnel starts at zero), as share-funnel.spec.ts does.
 */
const GOODS = DEMO_IDS.goods.gallery;
const PAGE = `${BASE_PATH}/AppShare/goodsShare?id=${GOODS}`;
const SHOTS = '/tmp/shots-i31-sheet';
/** The stores a tap may open, answered here: no test leaves the machine. */
const STORES = /^https:\/\/(apps\.apple\.com|sj\.qq\.com|www\.guquan\.example)\//;

function gallery(page: Page) {
  return page.getByRole('region', { name: shareTexts('zh-CN').gallery }).locator('> div');
}

// The journey reads the funnel of a server of its own (one per project: a port each).
test.describe('the journey of issue 31', () => {
  // Its own server and operators' listener per project: E2E_PORT + 63 and + 73 (Android + 1).
  const own = ownServer({ name: 'missing-app', port: 63, perProject: true });
  const counts = async () => (await own.funnel({ kind: 'goods', id: GOODS })).totals;

  test.beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
  });

  test('open without the app → back where the visitor was, the sheet → the store after a toast → back: 1 view, 1 tap', async ({
    openContext,
    consoleGuard,
  }, testInfo) => {
    test.setTimeout(180_000);
    const android = testInfo.project.name === 'android';
    const text = shareTexts('zh-CN');
    const sheetText = missingAppTexts('zh-CN');
    // A phone that speaks Chinese: the link domain sends it to the page in its language.
    const context = await openContext({
      locale: 'zh-CN',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const storeVisits: string[] = [];
    await context.route(STORES, async (route) => {
      storeVisits.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>store</title>' });
    });
    const page = await context.newPage();
    // The demo data has counts of its own: the journey adds to them.
    const before = await counts();

    // The share page; the visitor swipes to the third image and reads on down the page.
    await open(page, `${own.origin}${withLang(PAGE, 'zh-CN')}`);
    await waitForApp(page);
    await gallery(page).evaluate((track) => {
      track.scrollTo({ left: track.clientWidth * 2 });
    });
    await page.evaluate(() => {
      window.scrollTo({ top: 240, behavior: 'instant' });
    });
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(240);

    // "Open": no app, so the link domain sends the visitor back to a new page, app missing.
    await page.getByRole('link', { name: text.openInApp.goods }).click();
    await page.waitForURL(/[?&]app=missing/);
    await waitForApp(page);
    const sheet = page.getByRole('dialog', { name: sheetText.title });
    await expect(sheet).toBeVisible();
    await expect(sheet).toContainText(sheetText.promise.replace('{item}', sheetText.item.goods));
    // Where the visitor was: the same scroll position and image.
    expect(await page.evaluate(() => Math.round(window.scrollY))).toBe(240);
    const image = await gallery(page).evaluate((track) =>
      Math.round(track.scrollLeft / track.clientWidth),
    );
    expect(image).toBe(2);
    await expectNoAxeViolations(page, 'dialog');
    await page.screenshot({ path: `${SHOTS}/journey-sheet-${testInfo.project.name}.png` });

    // One tap to the store: the toast first (the code copied), then the store.
    const store = android
      ? sheet.getByRole('link').first()
      : sheet.getByRole('link', { name: sheetText.getIos });
    if (android) await expect(store).toHaveText(sheetText.getAndroid.replace('{store}', '应用宝'));
    const minted = page.waitForResponse((response) =>
      response.url().endsWith('/app-links/handoffs'),
    );
    await store.click();
    expect((await minted).status()).toBe(201);
    const toast = page.getByRole('status').filter({ hasText: sheetText.toastCopied });
    await expect(toast).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/journey-toast-${testInfo.project.name}.png` });
    await page.waitForURL(STORES);
    expect(storeVisits).toHaveLength(1);

    // Back from the store, then a reload: the same visit. The code is on the clipboard.
    await page.goBack();
    await waitForApp(page);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      /^【谷圈】.+ ￥[0-9A-HJKMNP-TV-Z]{12}￥ http:\/\/localhost:\d+\/goods\//,
    );
    await page.reload();
    await waitForApp(page);
    consoleGuard.allow(/apps\.apple\.com|sj\.qq\.com/);

    await expect
      .poll(async () => counts(), { timeout: 30_000 })
      .toEqual({
        ...before,
        viewed: before.viewed + 1,
        open_tapped: before.open_tapped + 1,
        link_fallback: before.link_fallback + 1,
        store_fallback: before.store_fallback + 1,
        handoff_minted: before.handoff_minted + 1,
      });
  });
});

for (const width of [390, 360]) {
  for (const language of ['zh-CN', 'en'] as const satisfies readonly Language[]) {
    test(`the sheet at ${width} px in ${language}: readable, axe-clean, the stores of this phone`, async ({
      page,
    }, testInfo) => {
      // A page load, axe and a screenshot: more than 30 s on a busy machine.
      test.setTimeout(180_000);
      const sheetText = missingAppTexts(language);
      await page.setViewportSize({ width, height: 780 });
      await open(page, withLang(`${PAGE}&app=missing`, language));
      await waitForApp(page);
      const sheet = page.getByRole('dialog', { name: sheetText.title });
      await expect(sheet).toBeVisible();
      const stores = sheet.getByRole('listitem');
      if (testInfo.project.name === 'android')
        await expect(stores).toHaveText([
          sheetText.getAndroid.replace(
            '{store}',
            language === 'en' ? 'Tencent MyApp (应用宝)' : '应用宝',
          ),
          language === 'en' ? 'Download the APK' : '直接下载安装包（APK）',
        ]);
      else await expect(stores).toHaveText([sheetText.getIos]);
      // Nothing is cut off: the sheet fits the screen's width.
      const box = await sheet.locator('> div').boundingBox();
      expect(box?.width).toBeLessThanOrEqual(width);
      await expectNoAxeViolations(page, 'dialog');
      await page.screenshot({
        path: `${SHOTS}/sheet-${testInfo.project.name}-${width}-${language}.png`,
      });
      await sheet.getByRole('button', { name: sheetText.close }).click();
      await expect(sheet).toBeHidden();
    });
  }
}

test('once shown, the sheet leaves the address: a reload shows the page without it', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const sheetText = missingAppTexts('zh-CN');
  const text = shareTexts('zh-CN');
  await open(page, `${withLang(`${PAGE}&app=missing&utm_source=wechat`, 'zh-CN')}#comments`);
  await waitForApp(page);
  const sheet = page.getByRole('dialog', { name: sheetText.title });
  await expect(sheet).toBeVisible();
  // The link domain's word leaves the address; every other parameter and the hash stay.
  await expect.poll(() => new URL(page.url()).searchParams.has('app')).toBe(false);
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toEqual({
    id: GOODS,
    utm_source: 'wechat',
    lang: 'zh-CN',
  });
  expect(url.hash).toBe('#comments');
  // The page still knows the app is missing: its bar offers to get it.
  const bar = page.getByRole('complementary', { name: text.appName });
  await expect(bar).toContainText(text.appMissingBarText);
  await page.screenshot({ path: `${SHOTS}/sheet-left-address-${testInfo.project.name}.png` });

  await page.reload();
  await waitForApp(page);
  await expect(bar).toContainText(text.appBarText);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a Xiaomi phone gets its maker’s store first; a removed item promises nothing', async ({
  openContext,
  consoleGuard,
}, testInfo) => {
  // The removed item's page answers 410, which the browser reports.
  consoleGuard.allow(/status of 410/);
  test.skip(testInfo.project.name !== 'android', 'Android stores');
  const sheetText = missingAppTexts('zh-CN');
  const xiaomi = await openContext({
    userAgent:
      'Mozilla/5.0 (Linux; U; Android 13; zh-cn; 23013RK75C Build/TKQ1.221114.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/109.0.5414.118 Mobile Safari/537.36 XiaoMi/MiuiBrowser/17.8.240117',
  });
  const page = await xiaomi.newPage();
  await open(page, withLang(`${PAGE}&app=missing`, 'zh-CN'));
  await waitForApp(page);
  const sheet = page.getByRole('dialog', { name: sheetText.title });
  await expect(sheet.getByRole('listitem')).toHaveText([
    sheetText.getAndroid.replace('{store}', '小米应用商店'),
    sheetText.getAndroid.replace('{store}', '应用宝'),
    '直接下载安装包（APK）',
  ]);
  await expect(sheet.getByRole('link').first()).toHaveAttribute('href', /^mimarket:/);

  await open(
    page,
    withLang(`${BASE_PATH}/AppShare/goodsShare?id=${DEMO_IDS.goods.removed}&app=missing`, 'zh-CN'),
  );
  await waitForApp(page);
  const removed = page.getByRole('dialog', { name: sheetText.title });
  await expect(removed).toContainText(sheetText.noPromise);
  await expect(removed).not.toContainText('等你');
  await expectNoAxeViolations(page, 'dialog');
  await page.screenshot({ path: `${SHOTS}/sheet-removed-${testInfo.project.name}.png` });
});
