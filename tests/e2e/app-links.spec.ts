import { readFileSync } from 'node:fs';
import type { Goods } from '@guquan/contract/share';
import { shareApiPath } from '@guquan/contract/share-paths';
import { missingAppTexts } from '../../apps/web/src/features/share/missing-app-sheet/missing-app-texts.ts';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import { BASE_PATH, DEMO_IDS, expect, open, test, waitForApp, withLang } from './fixtures.ts';

/**
 * The whole way from a shared link to the app on a phone without it (docs/decisions/0017-app-links-and-handoffs.md): the share
 * page's "open in app" takes the item's Universal Link (App Link on Android) to the link domain,
 * which the app did not claim (it is not installed), so the link domain sends the visitor back to
 * the share page saying so; "Get the app" copies the share text with a code the server minted and
 * opens the store (intercepted); the simulated app's first launch after the install reads the
 * clipboard, claims the code and names the same goods and image.
 *
 * The e2e server is a demo server without LINK_ORIGIN: its link domain is http://127.0.0.1:<PORT+1>,
 * where the same server also listens.
 */
const siteFacts = JSON.parse(
  readFileSync(new URL('../../content/site.json', import.meta.url), 'utf8'),
) as { download: { ios: { url: string }; android: { url: string } } };

const text = shareTexts('zh-CN');
const sheetText = missingAppTexts('zh-CN');
const GOODS = DEMO_IDS.goods.gallery;
const STORES = /^https:\/\/(apps\.apple\.com|www\.guquan\.example)\//;

// A visitor whose phone speaks Chinese: the link domain sends them to the page in their language.
test.use({ locale: 'zh-CN' });

test('share page → open in app → the link domain (app missing) → get the app → the store; the first launch claims the same goods and image', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  // Four documents and a simulator: more than one page's worth of time on a shared machine.
  test.setTimeout(180_000);
  const site = new URL(baseURL ?? '');
  const linkOrigin = `http://${site.hostname}:${Number(site.port) + 1}`;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  const storeVisits: string[] = [];
  await context.route(STORES, async (route) => {
    storeVisits.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>store</title>' });
  });
  const goods = (await (await page.request.get(shareApiPath('goods', GOODS))).json()) as Goods;
  expect(goods.images.length).toBeGreaterThan(2);

  // The share page, as a shared link opens it; the visitor swipes to the third image.
  await open(page, withLang(`${BASE_PATH}/AppShare/goodsShare?id=${GOODS}`, 'zh-CN'));
  await waitForApp(page);
  const meta = page.locator('meta[name="guquan-link-origin"]');
  await expect(meta).toHaveAttribute('content', linkOrigin);
  await page
    .getByRole('region', { name: text.gallery })
    .locator('> div')
    .evaluate((track) => {
      track.scrollTo({ left: track.clientWidth * 2 });
    });
  const openInApp = page.getByRole('link', { name: text.openInApp.goods });
  await expect(openInApp).toHaveAttribute('href', `${linkOrigin}/goods/${GOODS}?image=2`);

  // "Open in app": the app is not installed, so the browser loads the link domain, which sends the
  // visitor back to the item, the app missing, the image kept.
  const fallback = page.waitForResponse((response) => response.url().startsWith(linkOrigin));
  await openInApp.click();
  expect((await fallback).status()).toBe(302);
  await page.waitForURL(/app=missing/);
  const landed = new URL(page.url());
  expect(landed.origin).toBe(site.origin);
  expect(Object.fromEntries(landed.searchParams)).toEqual({
    id: GOODS,
    lang: 'zh-CN',
    app: 'missing',
    image: '2',
  });
  await waitForApp(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(goods.name);
  await expect(page.getByText(text.copyNote)).toBeVisible();

  // The missing-app sheet: one tap to the store (on Android, the APK is the last of its stores)
  // copies the share text, then the store opens.
  const minted = page.waitForResponse((response) => response.url().endsWith('/app-links/handoffs'));
  const sheet = page.getByRole('dialog', { name: sheetText.title });
  await (
    testInfo.project.name === 'iphone'
      ? sheet.getByRole('link', { name: sheetText.getIos })
      : sheet.getByRole('listitem').last().getByRole('link')
  ).click();
  expect((await minted).status()).toBe(201);
  await page.waitForURL(STORES);
  expect(storeVisits).toHaveLength(1);
  expect(storeVisits[0]).toBe(
    testInfo.project.name === 'iphone'
      ? siteFacts.download.ios.url
      : siteFacts.download.android.url,
  );

  // Back on the site (the clipboard is the phone's, not a page's).
  await open(page, `${BASE_PATH}/APPPage/iosVipBuy`);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(
    new RegExp(
      `^【谷圈】${goods.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ￥[0-9A-HJKMNP-TV-Z]{12}￥ ${linkOrigin.replace(/[.]/g, '\\.')}/goods/${GOODS}\\?image=2$`,
    ),
  );

  // The app's first launch after the install: it reads the clipboard once and claims the code.
  await page.getByRole('button', { name: 'App simulator' }).click();
  const claimed = page.waitForResponse((response) => response.url().endsWith('/app-links/claims'));
  await page.getByRole('button', { name: 'First launch after install' }).click();
  expect((await claimed).status()).toBe(200);
  await expect(page.locator('[data-bridge-simulator] [role="status"]')).toContainText(
    `the app claimed the code and opens goods ${GOODS} “${goods.name}”, at image 3.`,
  );
  // The app clears what it claimed.
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('');
});

test('the link domain serves the two association files and nothing of the site', async ({
  request,
  baseURL,
}) => {
  const site = new URL(baseURL ?? '');
  const linkOrigin = `http://${site.hostname}:${Number(site.port) + 1}`;
  for (const file of ['apple-app-site-association', 'assetlinks.json']) {
    const answer = await request.get(`${linkOrigin}/.well-known/${file}`, { maxRedirects: 0 });
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toMatch(/^application\/json/);
    expect(
      (await request.get(`${site.origin}/.well-known/${file}`, { maxRedirects: 0 })).status(),
    ).toBe(404);
  }
  const other = await request.get(`${linkOrigin}${BASE_PATH}/website`, { maxRedirects: 0 });
  expect(other.status()).toBe(404);
  expect(other.headers()['x-robots-tag']).toMatch(/noindex/);
});
