import type { Page } from '@playwright/test';
import { formatPrice } from '@guquan/contract/price';
import type { Goods } from '@guquan/contract/share';
import {
  shareApiPath,
  sharePagePath,
  shelfApiPath,
  SHELF_SIZE,
  type ShareKind,
} from '@guquan/contract/share-paths';
import type { WorkShelf } from '@guquan/contract/share-shelf';
import { shareFailureTexts } from '../../apps/web/src/features/share/texts/all-failure-texts.ts';
import { fill, shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import { workShelfTexts } from '../../apps/web/src/features/share/page/work-shelf-texts.ts';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  expectSingleMain,
  LANGUAGES,
  open,
  test,
  waitForApp,
  withLang,
  type Language,
} from './fixtures.ts';

/**
 * Issue 31, section 3: the pages that cannot show their item say why in a sentence and offer
 * what to do next, and a goods page and every such page end with a shelf of public goods of the
 * same work (or the newest, where the page names no work), each a link to its own share page.
 * At 390 and 320 px, in Chinese and English, axe on each; screenshots in /tmp/shots-i31-shelf.
 */

const SHOTS = '/tmp/shots-i31-shelf';
const WIDTHS = [390, 320] as const;
const WORK = '咒术回战';

type State = 'ok' | 'private' | 'removed' | 'not_found' | 'invalid_id';

const PAGES: readonly {
  name: string;
  kind: ShareKind;
  id: string | undefined;
  state: State;
  status: number;
  /** The work the shelf is of, or null: the newest goods of any work. */
  work: string | null;
}[] = [
  {
    name: 'goods',
    kind: 'goods',
    id: DEMO_IDS.goods.gallery,
    state: 'ok',
    status: 200,
    work: WORK,
  },
  {
    name: 'private',
    kind: 'goods',
    id: DEMO_IDS.goods.private,
    state: 'private',
    status: 403,
    work: null,
  },
  {
    name: 'removed',
    kind: 'goods',
    id: DEMO_IDS.goods.removed,
    state: 'removed',
    status: 410,
    work: WORK,
  },
  {
    name: 'not-found',
    kind: 'cabinet',
    id: DEMO_IDS.unknown,
    state: 'not_found',
    status: 404,
    work: null,
  },
  { name: 'malformed', kind: 'note', id: 'bad.id', state: 'invalid_id', status: 400, work: null },
];

function pageUrl(kind: ShareKind, id: string | undefined, language: Language): string {
  return withLang(`${BASE_PATH}${sharePagePath(kind, id)}`, language);
}

async function readShelf(page: Page, kind: ShareKind, id: string | undefined): Promise<WorkShelf> {
  const response = await page.request.get(shelfApiPath(kind, id));
  expect(response.status()).toBe(200);
  return (await response.json()) as WorkShelf;
}

/** Each shelf tile's link target (the goods' id) and text. */
async function tilesOf(page: Page): Promise<{ id: string; lang: string | null; text: string }[]> {
  return page.locator('[data-work-shelf] a').evaluateAll((links) =>
    links.map((link) => {
      const url = new URL((link as HTMLAnchorElement).href);
      return {
        id: url.pathname.endsWith('/AppShare/goodsShare') ? (url.searchParams.get('id') ?? '') : '',
        lang: url.searchParams.get('lang'),
        text: link.textContent,
      };
    }),
  );
}

for (const language of LANGUAGES) {
  for (const { name, kind, id, state, status, work } of PAGES) {
    test(`${name} (${status}, ${language}): says what to do next and ends with the shelf, at 390 and 320 px`, async ({
      page,
      consoleGuard,
    }) => {
      // Two widths, each with a screenshot and axe: more than the default 30 s on a busy machine.
      test.slow();
      consoleGuard.allow(
        new RegExp(`Failed to load resource: the server responded with a status of ${status}`),
      );
      const response = await open(page, pageUrl(kind, id, language));
      expect(response.status()).toBe(status);
      // Server-rendered: the shelf is in the first paint, before any script.
      const html = await response.text();
      expect(html).toContain('data-work-shelf');
      await waitForApp(page);
      await expectSingleMain(page);

      const text = shareTexts(language);
      if (state === 'ok') {
        const goods = (await (await page.request.get(shareApiPath('goods', id))).json()) as Goods;
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(goods.name);
      } else {
        const failureText = shareFailureTexts(language);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(
          fill(failureText.heading[state], { this: text.this[kind] }),
        );
        await expect(page.getByText(failureText.why[state])).toBeVisible();
        await expect(
          page.getByText(fill(failureText.code, { code: String(status) })),
        ).toBeVisible();
        await expect(page.getByRole('button', { name: text.openApp })).toBeVisible();
        const download = page.getByRole('link', { name: failureText.download });
        await expect(download).toHaveAttribute(
          'href',
          `${withLang(`${BASE_PATH}/website`, language)}#download`,
        );
      }

      // The shelf: the work's goods (or the newest), public ones only, never the item itself.
      const shelfTexts = workShelfTexts(language);
      const shelf = await readShelf(page, kind, id);
      expect(shelf.work).toBe(work);
      const heading = work === null ? shelfTexts.newest : fill(shelfTexts.ofWork, { work });
      const section = page.getByRole('region', { name: heading });
      await expect(section).toBeVisible();
      const tiles = await tilesOf(page);
      expect(tiles.length).toBeGreaterThan(0);
      expect(tiles.length).toBeLessThanOrEqual(SHELF_SIZE);
      expect(tiles.map((tile) => tile.id)).toEqual(shelf.goods.map((goods) => goods.id));
      for (const hidden of [id, DEMO_IDS.goods.private, DEMO_IDS.goods.removed])
        expect(tiles.map((tile) => tile.id)).not.toContain(hidden);
      expect(tiles.every((tile) => tile.lang === language)).toBe(true);
      shelf.goods.forEach((goods, index) => {
        expect(tiles[index]?.text).toContain(goods.name);
        if (goods.status === 'selling' && goods.priceFen !== null)
          expect(tiles[index]?.text).toContain(formatPrice(goods.priceFen));
        else expect(tiles[index]?.text).not.toContain('¥');
      });
      if (work !== null) expect(shelf.goods.every((goods) => goods.work === work)).toBe(true);

      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 844 });
        await section.scrollIntoViewIfNeeded();
        await expect
          .poll(() =>
            section
              .locator('img')
              .evaluateAll((images) =>
                images.every((image) => (image as HTMLImageElement).complete),
              ),
          )
          .toBe(true);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `nothing wider than ${width} px`).toBeLessThanOrEqual(0);
        // The whole page from its top (a sticky bar scrolled with it would cover the middle).
        await page.evaluate(() => {
          scrollTo(0, 0);
        });
        await page.screenshot({
          path: `${SHOTS}/${name}-${language}-${width}.png`,
          fullPage: true,
        });
        await expectNoAxeViolations(page);
      }
    });
  }
}

test('a tile opens its goods in place, and that page ends with its own shelf', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 410/);
  await open(page, pageUrl('goods', DEMO_IDS.goods.removed, 'en'));
  await waitForApp(page);
  const [first] = await tilesOf(page);
  const target = (await (
    await page.request.get(shareApiPath('goods', first?.id ?? ''))
  ).json()) as Goods;
  await page.evaluate(() => {
    window.e2eMarker = 1;
  });
  await page.locator('[data-work-shelf] a').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(target.name);
  await expect(page).toHaveURL(new RegExp(`id=${target.id}&lang=en$`));
  // The same document: the router fetched the goods and its shelf.
  expect(await page.evaluate(() => window.e2eMarker)).toBe(1);
  const shelf = await readShelf(page, 'goods', target.id);
  await expect
    .poll(async () => (await tilesOf(page)).map((tile) => tile.id))
    .toEqual(shelf.goods.map((goods) => goods.id));
  expect((await tilesOf(page)).map((tile) => tile.id)).not.toContain(target.id);
});

test('a cabinet and a note that are shown end without a shelf', async ({ page }) => {
  for (const [kind, id] of [
    ['cabinet', DEMO_IDS.cabinets.main],
    ['note', DEMO_IDS.notes.noImages],
  ] as const) {
    const response = await open(page, pageUrl(kind, id, 'zh-CN'));
    expect(response.status()).toBe(200);
    expect(await response.text()).not.toContain('data-work-shelf');
  }
});

test('on a desktop the shelf lays small tiles across the width, pictures at their size', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 403/);
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const [kind, id] of [
    ['goods', DEMO_IDS.goods.gallery],
    ['goods', DEMO_IDS.goods.private],
  ] as const) {
    await open(page, pageUrl(kind, id, 'zh-CN'));
    await waitForApp(page);
    const tiles = page.locator('[data-work-shelf] li');
    await expect(tiles.first()).toBeVisible();
    const boxes = await tiles.evaluateAll((items) =>
      items.map((item) => item.getBoundingClientRect()),
    );
    // Every tile of the shelf on one row at 1280 px (it had three a row, 380 px each), none
    // wider than the 160 px its pictures are chosen for (image-slots.ts).
    expect(new Set(boxes.map((box) => Math.round(box.top))).size).toBe(1);
    for (const box of boxes) expect(box.width).toBeLessThanOrEqual(160);
    const sizes = await tiles.locator('img').first().getAttribute('sizes');
    expect(sizes).toMatch(/^\(min-width: 1024px\) 160px,/);
  }
});

test('a failure page keeps its sentence and its shelf on screen while it hydrates', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 410/);
  // Every frame from the first: how many headings and shelf links are drawn. They blinked out
  // for 50–600 ms when their code came after hydration began (features/share/page/drawn-later.ts).
  await page.addInitScript(() => {
    const frames: [number, number][] = [];
    Object.assign(window, { e2eFrames: frames });
    const count = () => {
      frames.push([
        document.querySelectorAll('h1').length,
        document.querySelectorAll('[data-work-shelf] a').length,
      ]);
      if (frames.length < 240) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  await open(page, pageUrl('goods', DEMO_IDS.goods.removed, 'zh-CN'));
  await waitForApp(page);
  // Until the recording ends: 240 frames from the first, however fast the machine draws them.
  await page.waitForFunction(
    () => (window as unknown as { e2eFrames: unknown[] }).e2eFrames.length >= 240,
  );
  const frames = await page.evaluate(
    () => (window as unknown as { e2eFrames: [number, number][] }).e2eFrames,
  );
  // From the first frame that has them, none without them.
  const drawn = frames.findIndex(([headings, tiles]) => headings > 0 && tiles > 0);
  expect(drawn).toBeGreaterThanOrEqual(0);
  expect(frames.slice(drawn).filter(([headings, tiles]) => headings === 0 || tiles === 0)).toEqual(
    [],
  );
});
