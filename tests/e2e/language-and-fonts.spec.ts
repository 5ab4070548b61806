import type { Page } from '@playwright/test';
import type { Note } from '@guquan/contract/share';
import { shareApiPath, sharePagePath } from '@guquan/contract/share-paths';
import { missingAppTexts } from '../../apps/web/src/features/share/missing-app-sheet/missing-app-texts.ts';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import {
  BASE_PATH,
  DEMO_IDS,
  LANGUAGES,
  UNKNOWN_PATH,
  expect,
  expectNoAxeViolations,
  fullPath,
  open,
  routeById,
  test,
  waitForApp,
  websiteRoute,
  withLang,
  type Language,
} from './fixtures.ts';

/**
 * Issue 31, section 4: English pages set in a Latin font, the app bar's line whole at phone widths,
 * counts that read the same way in both languages, the share text in the page's language, a
 * language switch at the end of every page, the link domain's 404 in the site's look and the
 * visitor's language; and the website's copyright years from the clock.
 */

const SHOTS = '/tmp/shots-i31-lang';
const WIDTHS = [390, 360, 320] as const;
const GOODS_PATH = `${BASE_PATH}${sharePagePath('goods', DEMO_IDS.goods.gallery)}`;
const NOTE_PATH = `${BASE_PATH}${sharePagePath('note', DEMO_IDS.notes.rich)}`;
const LEGAL_PATH = fullPath(routeById('user-agreement'));
const SWITCH: Readonly<Record<Language, { label: string; name: string; to: Language }>> = {
  'zh-CN': { label: '语言', name: 'English', to: 'en' },
  en: { label: 'Language', name: '中文', to: 'zh-CN' },
};

/** The width of the first `’` in the element's text, and the element's font size, in px. */
function apostropheWidth(page: Page, selector: string): Promise<{ width: number; size: number }> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf('’') ?? -1;
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        const size = parseFloat(getComputedStyle(node.parentElement ?? element).fontSize);
        return { width: range.getBoundingClientRect().width, size };
      }
      throw new Error('no ’ in the element');
    });
}

test.describe('English in a Latin font', () => {
  test('an apostrophe on an English share page is narrow, not a CJK font’s full width', async ({
    page,
  }) => {
    await open(page, withLang(GOODS_PATH, 'en'));
    await waitForApp(page);
    // "Open the Goods Circle app for more fans’ merch": the app bar's line.
    const { width, size } = await apostropheWidth(page, 'aside p');
    expect(width).toBeGreaterThan(0);
    expect(width / size, `’ is ${width} px wide at ${size} px`).toBeLessThan(0.45);
    const family = await page
      .locator('aside p')
      .first()
      .evaluate((p) => getComputedStyle(p).fontFamily);
    expect(family).toMatch(/^"?DejaVu Sans/);
  });

  test('Chinese pages keep the CJK font first; an English page’s Chinese part takes it too', async ({
    page,
  }) => {
    await open(page, withLang(GOODS_PATH, 'zh-CN'));
    await waitForApp(page);
    expect(
      await page.locator('main').evaluate((main) => getComputedStyle(main).fontFamily),
    ).toMatch(/^"?WenQuanYi Micro Hei/);
    await open(page, withLang(fullPath(websiteRoute), 'en'));
    await waitForApp(page);
    const fonts = await page.getByRole('contentinfo').evaluate((footer) => ({
      footer: getComputedStyle(footer).fontFamily,
      chinese: getComputedStyle(footer.querySelector('[lang="zh-CN"]') ?? footer).fontFamily,
    }));
    expect(fonts.footer).toMatch(/^"?DejaVu Sans/);
    expect(fonts.chinese).toMatch(/^"?WenQuanYi Micro Hei/);
    // The website's English has no apostrophe of its own: a word with one, set in the footer.
    await page.getByRole('contentinfo').evaluate((footer) => {
      const probe = document.createElement('span');
      probe.textContent = 'the person’s';
      footer.querySelector('p')?.append(probe);
    });
    const { width, size } = await apostropheWidth(page, 'footer p');
    expect(width / size).toBeLessThan(0.45);
  });
});

test.describe('the app bar’s line at phone widths', () => {
  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      for (const missing of [false, true]) {
        test(`${language} at ${width} px${missing ? ', the app missing' : ''}: whole, not cut off`, async ({
          page,
        }) => {
          await page.setViewportSize({ width, height: 700 });
          const path = missing ? `${GOODS_PATH}&app=missing` : GOODS_PATH;
          await open(page, withLang(path, language));
          await waitForApp(page);
          const bar = page.getByRole('complementary', { name: shareTexts(language).appName });
          const fit = await bar.evaluate((aside) => {
            const line = aside.querySelector('p > span:last-child') ?? aside;
            const style = getComputedStyle(line);
            return {
              text: line.textContent,
              lineFits: line.scrollWidth <= line.clientWidth,
              ellipsis: style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap',
              barFits: aside.scrollWidth <= aside.clientWidth,
              pageFits: document.documentElement.scrollWidth <= window.innerWidth,
            };
          });
          expect(fit.text).toBe(
            missing ? shareTexts(language).appMissingBarText : shareTexts(language).appBarText,
          );
          expect(fit).toMatchObject({
            lineFits: true,
            ellipsis: false,
            barFits: true,
            pageFits: true,
          });
          await bar.screenshot({
            path: `${SHOTS}/app-bar-${language}-${width}${missing ? '-missing' : ''}.png`,
          });
        });
      }
    }
  }
});

test.describe('the goods facts at phone widths', () => {
  for (const language of LANGUAGES) {
    test(`${language} at 320 px: every label on one line, none broken inside a word`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 320, height: 700 });
      await open(page, withLang(GOODS_PATH, language));
      await waitForApp(page);
      const labels = await page.locator('article dl dt').evaluateAll((terms) =>
        terms.map((term) => {
          const style = getComputedStyle(term);
          return {
            text: term.textContent,
            lines: Math.round(term.getBoundingClientRect().height / parseFloat(style.lineHeight)),
          };
        }),
      );
      // Series, Character, Category (作品, 角色, 品类): "Characte / r" was cut at 320 px.
      expect(labels.length).toBeGreaterThanOrEqual(3);
      for (const label of labels) expect(label, label.text).toMatchObject({ lines: 1 });
    });
  }
});

test.describe('counts', () => {
  test('read "1,024 likes" in English and 1024 in Chinese', async ({ page }) => {
    const response = await page.request.get(shareApiPath('note', DEMO_IDS.notes.rich));
    const note = (await response.json()) as Note;
    expect(note.likes).toBe(1024);
    for (const [language, count] of [
      ['en', '1,024likes'],
      ['zh-CN', '1024喜欢'],
    ] as const) {
      await open(page, withLang(NOTE_PATH, language));
      await waitForApp(page);
      const counts = page.getByRole('list', { name: shareTexts(language).counts });
      // Then the hidden words saying the link opens the app.
      await expect(counts.getByRole('listitem').first()).toHaveText(new RegExp(`^${count}`));
      await counts.screenshot({ path: `${SHOTS}/counts-${language}.png` });
    }
  });
});

test.describe('the share text', () => {
  test('copied on an English page is English, with the code the app looks for', async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const site = new URL(baseURL ?? '');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    await context.route(/^https:\/\/(apps\.apple\.com|www\.guquan\.example)\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>store</title>' }),
    );
    await open(page, withLang(`${GOODS_PATH}&app=missing`, 'en'));
    await waitForApp(page);
    // Back without the app: the missing-app sheet's one tap to the store.
    const sheet = missingAppTexts('en');
    await page
      .getByRole('dialog', { name: sheet.title })
      // The App Store on an iPhone, the APK on Android (the makers' stores are other apps).
      .locator('a[href^="https://apps.apple.com/"], a[href^="https://www.guquan.example/"]')
      .first()
      .click();
    await page.waitForURL(/apps\.apple\.com|www\.guquan\.example/);
    await open(page, `${BASE_PATH}/APPPage/iosVipBuy`);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^\[Goods Circle\] .+ ￥[0-9A-HJKMNP-TV-Z]{12}￥ http/);
  });
});

test.describe('the language switch at the end of every page', () => {
  const pages = [
    ['a share page', `${GOODS_PATH}&image=1`],
    ['the website', fullPath(websiteRoute)],
    ['a legal page', LEGAL_PATH],
    ['the not-found page', UNKNOWN_PATH],
  ] as const;
  for (const [name, path] of pages) {
    test(`${name}: a real link to the same page in the other language, and back`, async ({
      page,
      consoleGuard,
    }) => {
      // axe on four long pages, and two page loads.
      test.setTimeout(240_000);
      consoleGuard.allow(/status of 404/);
      let language: Language = 'zh-CN';
      await open(page, withLang(path, language));
      await waitForApp(page);
      for (const step of [1, 2]) {
        const { label, name: linkName }: { label: string; name: string } = SWITCH[language];
        const to: Language = SWITCH[language].to;
        const link = page.getByRole('navigation', { name: label }).getByRole('link', {
          name: linkName,
        });
        const href = await link.getAttribute('href');
        const target = new URL(href ?? '', page.url());
        const here = new URL(page.url());
        expect(target.pathname).toBe(here.pathname);
        expect(target.searchParams.get('lang')).toBe(to);
        for (const [key, value] of here.searchParams)
          if (key !== 'lang') expect(target.searchParams.get(key)).toBe(value);
        await expect(link).toHaveAttribute('lang', to);
        await expectNoAxeViolations(page);
        await link.scrollIntoViewIfNeeded();
        await page.screenshot({
          path: `${SHOTS}/switch-${name.replaceAll(' ', '-')}-${language}-${step}.png`,
        });
        await link.click();
        await page.waitForURL((url) => url.searchParams.get('lang') === to);
        await waitForApp(page);
        await expect(page.locator('html')).toHaveAttribute('lang', to);
        language = to;
      }
    });
  }
});

test.describe('the website’s footer', () => {
  test('its copyright years end at this year, the clock’s', async ({ page }) => {
    const thisYear = new Date(Date.now() + 8 * 3_600_000).getUTCFullYear();
    await open(page, withLang(fullPath(websiteRoute), 'en'));
    await waitForApp(page);
    await expect(page.getByRole('contentinfo')).toContainText(
      new RegExp(`© (\\d{4}–)?${thisYear} `),
    );
  });
});

for (const [language, heading] of [
  ['en', 'Page not found'],
  ['zh-CN', '页面不存在'],
] as const) {
  test.describe(`the link domain’s 404 for a phone in ${language}`, () => {
    // The phone's language: its Accept-Language.
    test.use({ locale: language });
    test(`in the visitor’s language (${language}), with the site’s look`, async ({
      page,
      baseURL,
      consoleGuard,
    }) => {
      consoleGuard.allow(/status of 404/);
      const site = new URL(baseURL ?? '');
      const linkOrigin = `http://${site.hostname}:${Number(site.port) + 1}`;
      const response = await open(page, `${linkOrigin}/no/such/link`);
      expect(response.status()).toBe(404);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      // The inline style applied: the policy allows it by its hash (a refusal fails the guard).
      const button = page.getByRole('link', { name: language === 'en' ? /website/ : /官网/ });
      expect(await button.evaluate((a) => getComputedStyle(a).backgroundColor)).toBe(
        'rgb(214, 36, 90)',
      );
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SHOTS}/link-404-${language}.png` });
      // ?lang= chooses over Accept-Language.
      const other = language === 'en' ? 'zh-CN' : 'en';
      await page.getByRole('link', { name: SWITCH[language].name }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', other);
    });
  });
}
