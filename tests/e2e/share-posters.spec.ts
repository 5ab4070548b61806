import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import { posterTexts } from '../../apps/web/src/features/share/poster/poster-texts.ts';
import {
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  expectPageBehindInert,
  fullPath,
  open,
  routeById,
  test,
  waitForApp,
  withLang,
  type Language,
} from './fixtures.ts';

/**
 * 分享海报 in a real browser: the poster the server made, opened from a share page in the site's
 * modal dialog at full screen, and saved — with the save button in Safari, by pressing and holding
 * the picture inside WeChat (WeChat's own menu, which no page can drive: the test checks the
 * picture is there to be held and is the real poster).
 */
const SHARES = [
  { route: routeById('goods-share'), id: DEMO_IDS.goods.gallery },
  { route: routeById('cabinet-share'), id: DEMO_IDS.cabinets.main },
  { route: routeById('notes-share'), id: DEMO_IDS.notes.noImages },
] as const;

/** The first bytes of every JPEG. */
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

async function openPoster(page: Page, language: Language) {
  const name = shareTexts(language).poster;
  await page.getByRole('button', { name }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  const poster = dialog.getByRole('img');
  // Loaded, whole: the picture is 1080×1440 and shows at full height or width.
  await expect
    .poll(
      () => poster.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
      {
        // A poster nobody asked for before is drawn now: on a busy machine, seconds.
        timeout: 20_000,
      },
    )
    .toBe(1080);
  expect(await poster.evaluate((image: HTMLImageElement) => image.naturalHeight)).toBe(1440);
  const alt = await poster.getAttribute('alt');
  expect(alt?.length).toBeGreaterThan(10);
  // Full screen: the dialog covers the viewport.
  const box = await dialog.boundingBox();
  const viewport = page.viewportSize();
  expect(box).toMatchObject({ x: 0, y: 0, width: viewport?.width, height: viewport?.height });
  await expectPageBehindInert(page, dialog);
  return { dialog, poster };
}

test.describe('share posters', () => {
  test.describe.configure({ timeout: 60_000 });
  for (const { route, id } of SHARES) {
    test(`${route.path}: the poster opens full screen and its save button saves it`, async ({
      page,
    }) => {
      const language: Language = route.id === 'cabinet-share' ? 'en' : 'zh-CN';
      await open(page, withLang(`${fullPath(route)}?id=${id}`, language));
      await waitForApp(page);
      const { dialog, poster } = await openPoster(page, language);
      await expectNoAxeViolations(page, 'dialog');
      const save = dialog.getByRole('link', { name: posterTexts(language).save });
      const [download] = await Promise.all([page.waitForEvent('download'), save.click()]);
      expect(download.suggestedFilename()).toMatch(/^guquan-(goods|cabinet|note)-[\w-]{16}\.jpg$/);
      const saved = await readFile(await download.path());
      expect(saved.subarray(0, 3).equals(JPEG_MAGIC)).toBe(true);
      const shown = await page.request.get((await poster.getAttribute('src')) ?? '');
      expect(Buffer.from(await shown.body()).equals(saved)).toBe(true);
      // Closing gives the page back, and the focus to the button.
      await dialog.getByRole('button', { name: posterTexts(language).close }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('button', { name: shareTexts(language).poster })).toBeFocused();
    });
  }

  test('inside WeChat: press and hold the picture to save it, no download button', async ({
    openContext,
  }, testInfo) => {
    const userAgent = testInfo.project.use.userAgent ?? '';
    const context = await openContext({ userAgent: `${userAgent} MicroMessenger/8.0.47` });
    const page = await context.newPage();
    const { route, id } = SHARES[0];
    await open(page, withLang(`${fullPath(route)}?id=${id}`, 'zh-CN'));
    await waitForApp(page);
    const { dialog, poster } = await openPoster(page, 'zh-CN');
    await expect(dialog).toContainText(posterTexts('zh-CN').longPress);
    await expect(dialog.getByRole('link', { name: posterTexts('zh-CN').save })).toHaveCount(0);
    // Nothing stands between a long press and the picture: WeChat's menu gets the <img> itself.
    const target = await poster.evaluate((image) => {
      const { left, top, width, height } = image.getBoundingClientRect();
      const hit = document.elementFromPoint(left + width / 2, top + height / 2);
      return { hit: hit === image, pointerEvents: getComputedStyle(image).pointerEvents };
    });
    expect(target).toEqual({ hit: true, pointerEvents: 'auto' });
    // What WeChat saves is the poster itself: a JPEG of the item, from the same address.
    const saved = await page.request.get((await poster.getAttribute('src')) ?? '');
    expect(saved.headers()['content-type']).toBe('image/jpeg');
    expect(
      Buffer.from(await saved.body())
        .subarray(0, 3)
        .equals(JPEG_MAGIC),
    ).toBe(true);
  });

  test('the dialog’s code loads only on the first tap, not with the page', async ({ page }) => {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const { route, id } = SHARES[0];
    await open(page, withLang(`${fullPath(route)}?id=${id}`, 'zh-CN'));
    await waitForApp(page);
    expect(requested.filter((url) => /poster-dialog/.test(url))).toEqual([]);
    await openPoster(page, 'zh-CN');
    expect(requested.some((url) => /poster-dialog-[\w-]+\.js$/.test(url))).toBe(true);
  });
});
