import type { Page, Request } from '@playwright/test';
import { EVENTS_PATH } from '@guquan/contract/funnel-events';
import type { Cabinet } from '@guquan/contract/share';
import { shareApiPath } from '@guquan/contract/share-paths';
import { missingAppTexts } from '../../apps/web/src/features/share/missing-app-sheet/missing-app-texts.ts';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  hasMarker,
  open,
  setMarker,
  test,
  waitForApp,
  withLang,
} from './fixtures.ts';

/**
 * A share page before React (docs/decisions/0031-share-pages-start-without-react.md), in a real
 * browser: the server's page and a small start-up script until the visitor's first intent (a
 * pointer down, a key, a focus). What the visitor can do then is done without React: the view
 * counted, "open in app" with its whole plan, the images as they come into view, the app bar
 * closed. Every other spec waits for the app (`waitForApp` gives the intent); this one does not.
 */
const TEXT = shareTexts('zh-CN');
const GOODS_PAGE = withLang(
  `${BASE_PATH}/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}`,
  'zh-CN',
);
const CABINET_PAGE = withLang(
  `${BASE_PATH}/AppShare/cabinetShare?id=${DEMO_IDS.cabinets.main}`,
  'zh-CN',
);
/** React's chunk (the build names it `react-<hash>.js`). */
const REACT_CHUNK = /\/assets\/react-[\w-]+\.js$/;

interface Beacon {
  event: string;
  kind: string;
  id: string;
}

/** Every funnel event the page sends, across its documents. */
function watchBeacons(page: Page): Beacon[] {
  const events: Beacon[] = [];
  page.on('request', (request: Request) => {
    if (!request.url().endsWith(EVENTS_PATH)) return;
    const body = JSON.parse(request.postData() ?? '{}') as { events?: Beacon[] };
    events.push(...(body.events ?? []));
  });
  return events;
}

/** Every script the page asked for. */
function watchScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' || request.url().endsWith('.js'))
      scripts.push(request.url());
  });
  return scripts;
}

/**
 * Holds React's chunk back until `release` is called: what the page does meanwhile, it does
 * without React (a tap is an intent, so without this the app could start within the same step).
 */
async function holdReact(page: Page): Promise<{ release: () => void; asked: () => boolean }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = false;
  await page.route(REACT_CHUNK, async (route) => {
    asked = true;
    await released;
    await route.continue();
  });
  return { release, asked: () => asked };
}

const appStart = (page: Page) =>
  page.evaluate(() => document.documentElement.dataset.appStart ?? '');

/** The server's page, its start-up script run, the app waiting for the visitor. */
async function openBeforeIntent(page: Page, url: string): Promise<void> {
  await open(page, url);
  await expect.poll(() => appStart(page)).toBe('on-intent');
}

test('before any intent: no React, the view counted once, far images as they come into view', async ({
  page,
}) => {
  const scripts = watchScripts(page);
  const beacons = watchBeacons(page);
  await openBeforeIntent(page, CABINET_PAGE);
  await expect
    .poll(() => beacons.filter((beacon) => beacon.event === 'viewed'))
    .toEqual([{ event: 'viewed', kind: 'cabinet', id: DEMO_IDS.cabinets.main }]);

  // The last tile's image comes as it is scrolled to (a scroll is not an intent).
  const lastTile = page.locator('main li a[href*="/AppShare/goodsShare?id="]').last();
  const lastImage = lastTile.locator('img');
  await expect(lastImage).toHaveCount(0);
  await lastTile.evaluate((tile) => {
    tile.scrollIntoView();
  });
  await expect(lastImage).toHaveJSProperty('complete', true);
  expect(await lastImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(
    0,
  );

  expect(await appStart(page)).toBe('on-intent');
  expect(scripts.some((url) => url.includes('/assets/share-pages-'))).toBe(true);
  expect(scripts.filter((url) => REACT_CHUNK.test(url))).toEqual([]);

  // The intent: the app starts, and counts nothing again.
  await waitForApp(page);
  expect(scripts.some((url) => REACT_CHUNK.test(url))).toBe(true);
  await page.waitForTimeout(1_000);
  expect(beacons.filter((beacon) => beacon.event === 'viewed')).toHaveLength(1);
});

test('“open” before React: the link domain, back with the missing-app sheet; one tap', async ({
  openContext,
}) => {
  const context = await openContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  const beacons = watchBeacons(page);
  await openBeforeIntent(page, GOODS_PAGE);
  const react = await holdReact(page);

  // The tap starts the app, but the link domain is reached before React is here.
  await page.getByRole('link', { name: TEXT.openInApp.goods }).click();
  await page.waitForURL(/[?&]app=missing/);
  await expect.poll(() => react.asked(), 'React asked for, and held').toBe(true);
  react.release();
  await waitForApp(page);
  await expect(page.getByRole('dialog', { name: missingAppTexts('zh-CN').title })).toBeVisible();
  // The tap is counted once. (The view, sent in the same beacon as the page leaves for the link
  // domain, is not always seen by the test's request listener: the first test counts views.)
  const count = (event: string) => beacons.filter((beacon) => beacon.event === event).length;
  await expect.poll(() => count('open_tapped')).toBe(1);
  expect(count('viewed')).toBeLessThanOrEqual(1);
});

test('a swipe before React: once the app is here, the counter shows the image the visitor is on', async ({
  page,
}) => {
  await openBeforeIntent(page, GOODS_PAGE);
  const gallery = page.getByRole('region', { name: TEXT.gallery });
  const counter = gallery.locator('p[aria-hidden="true"]');
  const total = Number((await counter.textContent())?.split('/')[1]);
  expect(total).toBeGreaterThan(2);
  await expect(counter).toHaveText(`1/${total}`);
  await gallery.locator('> div').evaluate((track) => {
    track.scrollTo({ left: track.clientWidth * 2, behavior: 'instant' });
  });
  expect(await appStart(page)).toBe('on-intent');
  await waitForApp(page);
  await expect(counter).toHaveText(`3/${total}`);
});

test('a tile tapped before React opens its goods page in place, without a reload', async ({
  page,
}) => {
  const cabinet = (await (
    await page.request.get(shareApiPath('cabinet', DEMO_IDS.cabinets.main))
  ).json()) as Cabinet;
  const target = cabinet.items[1];
  if (!target) throw new Error('The demo cabinet has too few items');
  await openBeforeIntent(page, CABINET_PAGE);
  await setMarker(page);
  const react = await holdReact(page);
  await page.locator(`main li a[href*="id=${target.id}"]`).click();
  // Held until the app is here, then followed by its router.
  await expect.poll(() => react.asked()).toBe(true);
  await expect(page).toHaveURL(CABINET_PAGE);
  react.release();
  await expect(page).toHaveURL(new RegExp(`/AppShare/goodsShare\\?id=${target.id}`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(target.name);
  expect(await hasMarker(page), 'the same document').toBe(true);
});

test('the app bar closed before React is gone at once, and stays closed on the next page', async ({
  page,
}) => {
  await openBeforeIntent(page, GOODS_PAGE);
  const react = await holdReact(page);
  const bar = page.getByRole('complementary', { name: TEXT.appName });
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: TEXT.appBarDismiss }).click();
  await expect(bar).toBeHidden();
  expect(await appStart(page), 'React is held back').toBe('starting');
  react.release();
  await waitForApp(page);
  await expect(bar).toHaveCount(0);

  // A new document in the same tab: hidden before the app is here.
  await openBeforeIntent(page, CABINET_PAGE);
  await expect(page.getByRole('complementary', { name: TEXT.appName })).toBeHidden();
});

test('the language switch before React: the other language of this address, as a whole page', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 404/);
  // The not-found page is one page for every unknown id: the second id is served the first's.
  const notFound = (id: string) => withLang(`${BASE_PATH}/AppShare/goodsShare?id=${id}`, 'zh-CN');
  const other = `${DEMO_IDS.unknown.slice(0, -1)}${DEMO_IDS.unknown.endsWith('A') ? 'B' : 'A'}`;
  await open(page, notFound(DEMO_IDS.unknown));
  // Its address is not the one it was rendered for, so it starts the app at once: held back here.
  const react = await holdReact(page);
  await open(page, notFound(other));
  // This document's start (`asked` may be the first page's, had it started late): the link is
  // made for this address before the app is asked for.
  await expect.poll(() => appStart(page)).toBe('starting');
  await expect.poll(() => react.asked()).toBe(true);
  await setMarker(page);
  await page.getByRole('link', { name: 'English' }).click();
  await page.waitForURL((url) => url.searchParams.get('lang') === 'en');
  expect(new URL(page.url()).searchParams.get('id')).toBe(other);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await hasMarker(page), 'a new document: the server chooses the language').toBe(false);
  react.release();
});
