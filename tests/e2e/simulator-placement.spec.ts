/**
 * The share pages' simulator (demo servers only) on a phone: its toggle covers nothing the visitor
 * taps, neither the button pinned to the bottom of the screen ("打开", or "下载谷圈 App" with "已安装？"
 * under it once the app was found missing) nor the top bar's buttons; at 320 and 390 px, in both
 * languages.
 */
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { APP_MISSING_PARAM, APP_MISSING_VALUE } from '@guquan/contract/app-link-paths';
import { sharePagePath } from '@guquan/contract/share-paths';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  LANGUAGES,
  open,
  test,
  waitForApp,
  withLang,
} from './fixtures.ts';

const SHOTS = '/tmp/shots-i31-edges';
mkdirSync(SHOTS, { recursive: true });

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * What the page shows at points across the element (its centre, then along it at three heights,
 * inside the round ends of a pill) that is neither the element nor inside it: [] when nothing
 * covers it.
 */
function coveredPoints(element: Locator): Promise<string[]> {
  return element.evaluate((target) => {
    const rect = target.getBoundingClientRect();
    const end = Math.min(rect.height / 2, rect.width / 2);
    const xs = [0.5, 0, 0.25, 0.75, 1].map((f) => rect.left + end + f * (rect.width - 2 * end));
    const ys = [0.5, 0.15, 0.85].map((f) => rect.top + f * rect.height);
    const found: string[] = [];
    for (const y of ys)
      for (const x of xs) {
        const hit = document.elementFromPoint(x, y);
        if (hit !== target && !(hit && target.contains(hit)))
          found.push(
            `${Math.round(x)},${Math.round(y)}: ${hit?.outerHTML.slice(0, 80) ?? 'nothing'}`,
          );
      }
    return found;
  });
}

async function expectUncovered(toggle: Locator, tappable: Locator) {
  await expect(tappable).toBeVisible();
  expect(await coveredPoints(tappable), `what covers ${await tappable.textContent()}`).toEqual([]);
  expect(overlap(await box(toggle), await box(tappable))).toBe(false);
}

for (const width of [320, 390] as const) {
  test.describe(`a share page at ${width} px on a demo server`, () => {
    test.use({ viewport: { width, height: 700 } });

    for (const language of LANGUAGES) {
      test(`the simulator's toggle covers none of the page's buttons (${language})`, async ({
        page,
      }) => {
        const text = shareTexts(language);
        const path = `${BASE_PATH}${sharePagePath('goods', DEMO_IDS.goods.gallery)}`;
        await open(page, withLang(path, language));
        await waitForApp(page);
        const toggle = page.getByRole('button', { name: 'App simulator' });
        await expect(toggle).toBeVisible();
        const bottom = page.locator('main').getByRole('link', { name: text.openInApp.goods });
        await expectUncovered(toggle, bottom);
        const bar = page.getByRole('complementary', { name: text.appName });
        await expectUncovered(toggle, bar.getByRole('link', { name: text.appBarOpen }));
        await expectUncovered(toggle, bar.getByRole('button', { name: text.appBarDismiss }));
        // Still a thumb's reach: in the lower half of the screen, at the left.
        const placed = await box(toggle);
        expect(placed.y).toBeGreaterThan(700 / 2);
        expect(placed.x).toBeLessThan(width / 2);
        // Its words are English on every page, in a Latin font first (no full-width "install’ s").
        await expect(page.getByRole('complementary', { name: 'App simulator' })).toHaveAttribute(
          'lang',
          'en',
        );
        const font = await toggle.evaluate((element) => getComputedStyle(element).fontFamily);
        expect(font.startsWith('"DejaVu Sans"')).toBe(true);
        await page.screenshot({ path: `${SHOTS}/simulator-${width}-${language}.png` });

        // Back from the link domain without the app: the taller bar, "已安装？" under its button.
        const missing = new URL(withLang(path, language), 'http://x');
        missing.searchParams.set(APP_MISSING_PARAM, APP_MISSING_VALUE);
        await open(page, `${missing.pathname}${missing.search}`);
        await waitForApp(page);
        const sheet = page.getByRole('dialog');
        await expect(sheet).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(sheet).toBeHidden();
        await expectUncovered(
          toggle,
          page.locator('main').getByRole('link', { name: text.getApp, exact: true }),
        );
        await expectUncovered(
          toggle,
          page.locator('main').getByRole('link', { name: text.alreadyInstalled }),
        );
        await page.screenshot({ path: `${SHOTS}/simulator-${width}-${language}-missing.png` });
      });
    }
  });
}

/** Issue 39, item 7: Escape closes the simulator's panel wherever the focus is, as it says. */
test('Escape closes the open simulator panel with the focus on the page', async ({ page }) => {
  await open(page, withLang(`${BASE_PATH}${sharePagePath('goods', DEMO_IDS.goods.gallery)}`, 'en'));
  await waitForApp(page);
  const toggle = page.getByRole('button', { name: 'App simulator' });
  await toggle.click();
  await expect(page.getByText(/Escape closes this panel/)).toBeVisible();
  // The focus back on the page (its heading), out of the panel.
  await page
    .locator('main h1')
    .first()
    .evaluate((heading: HTMLElement) => {
      heading.tabIndex = -1;
      heading.focus();
    });
  await page.keyboard.press('Escape');
  await expect(page.getByText(/Escape closes this panel/)).toBeHidden();
  await expect(page.getByRole('button', { name: 'App simulator' })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
});

/**
 * What of the page the simulator covers, at one scroll position: the points (centre and corners)
 * of every element of the page above the simulator's band that the simulator answers for, and
 * whether the band stays within the height it reserves (--simulator-band) at the foot.
 */
function simulatorCovers(page: Page): Promise<{ covered: string[]; bandFits: boolean }> {
  return page.evaluate(() => {
    const simulator = document.querySelector('[data-bridge-simulator]');
    // The height the page reserves for the band (a custom property reads as its calc() text).
    const probe = document.createElement('div');
    probe.style.cssText = 'position: absolute; height: var(--simulator-band, 0px)';
    document.body.append(probe);
    const reserved = probe.getBoundingClientRect().height;
    probe.remove();
    const bottom = window.innerHeight - reserved;
    const band = simulator?.querySelector('aside')?.getBoundingClientRect();
    const covered: string[] = [];
    for (const element of document.querySelectorAll('#root *')) {
      const rect = element.getBoundingClientRect();
      if (rect.width < 4 || rect.height < 4) continue;
      const xs = [rect.left + rect.width / 2, rect.left + 2, rect.right - 2];
      const ys = [rect.top + rect.height / 2, rect.top + 2, rect.bottom - 2];
      for (const x of xs)
        for (const y of ys) {
          // (Within a pixel of the band, a point's rounding decides: left out.)
          if (x < 0 || x >= window.innerWidth || y < 0 || y >= bottom - 1) continue;
          const hit = document.elementFromPoint(x, y);
          if (hit && simulator?.contains(hit)) {
            const text = element.textContent.trim().slice(0, 30);
            covered.push(
              `${element.tagName.toLowerCase()} “${text}” at ${Math.round(x)},${Math.round(y)}`,
            );
          }
        }
    }
    return { covered: [...new Set(covered)], bandFits: band ? band.top >= bottom - 1 : false };
  });
}

/** Issue 39, item 7: the simulator is a band of its own; nothing of any page is under it. */
test.describe('the simulator covers nothing of the page', () => {
  const pages = [
    ['goods share', sharePagePath('goods', DEMO_IDS.goods.gallery), 'zh-CN'],
    ['goods share', sharePagePath('goods', DEMO_IDS.goods.gallery), 'en'],
    ['cabinet share', sharePagePath('cabinet', DEMO_IDS.cabinets.main), 'zh-CN'],
    ['note share', sharePagePath('note', DEMO_IDS.notes.rich), 'en'],
    ['a share not found', sharePagePath('goods', DEMO_IDS.unknown), 'en'],
    ['membership', '/APPPage/iosVipBuy', 'en'],
    ['redeeming', `/APPPage/cashDesign?designId=${DEMO_IDS.designs.premium}`, 'zh-CN'],
    ['account deletion', '/APPPage/logOut', 'en'],
  ] as const;
  for (const [name, path, language] of pages) {
    test(`${name} (${language}), from its top to its end`, async ({ page, consoleGuard }) => {
      // A share not found answers 404, which the browser logs.
      consoleGuard.allow(/status of 404/);
      await open(page, withLang(`${BASE_PATH}${path}`, language));
      await waitForApp(page);
      await expect(page.getByRole('button', { name: 'App simulator' })).toBeVisible();
      const end = await page.evaluate(() => document.documentElement.scrollHeight);
      for (const at of [0, end / 2, end]) {
        await page.evaluate((y) => {
          window.scrollTo(0, y);
        }, at);
        // Two frames: sticky bars placed for the new position.
        await page.evaluate(
          () =>
            new Promise((resolve) => {
              requestAnimationFrame(() => requestAnimationFrame(resolve));
            }),
        );
        const { covered, bandFits } = await simulatorCovers(page);
        expect(covered, `scrolled to ${Math.round(at)}`).toEqual([]);
        expect(bandFits).toBe(true);
      }
      // At the end, the page's last line stands above the band, not under it.
      const gap = await page.evaluate(() => {
        const probe = document.createElement('div');
        probe.style.cssText = 'position: absolute; height: var(--simulator-band, 0px)';
        document.body.append(probe);
        const reserved = probe.getBoundingClientRect().height;
        probe.remove();
        const root = document.querySelector('#root')?.getBoundingClientRect();
        return (root?.bottom ?? Infinity) - (window.innerHeight - reserved);
      });
      expect(gap).toBeLessThanOrEqual(1);
      await page.screenshot({
        path: `${SHOTS}/covers-nothing-${name.replaceAll(' ', '-')}-${language}.png`,
      });
    });
  }
});
