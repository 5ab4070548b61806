import {
  chunkPattern,
  expect,
  expectNoAxeViolations,
  expectSingleMain,
  fullPath,
  gotoRoute,
  LANGUAGES,
  type Language,
  open,
  pageRoutes,
  routeById,
  samplePath,
  simulatorStylesheets,
  test,
  titleOf,
  waitForApp,
  watchRequests,
  websiteRoute,
  withLang,
} from './fixtures.ts';

/**
 * Axe runs once per route and project, so the suite checks every route in both languages without
 * paying for four runs: the iPhone project checks the English page, the Android one the Chinese.
 */
function axeLanguage(projectName: string): Language {
  return projectName === 'iphone' ? 'en' : 'zh-CN';
}

test.describe('every route opened by its URL', () => {
  for (const entry of pageRoutes) {
    test(`${entry.path} answers 200 with its title in both languages, one <main>, its own chunk only, no stylesheet fetched and no axe violations`, async ({
      page,
    }, testInfo) => {
      const requests = watchRequests(page);
      for (const language of LANGUAGES) {
        const response = await gotoRoute(page, entry, language);
        expect(response.status()).toBe(200);
        // The server's HTML already carries the language and the title.
        const html = await response.text();
        expect(html).toContain(`<html lang="${language}">`);
        expect(html).toContain(`<title>${titleOf(entry, language)}</title>`);

        await waitForApp(page);
        const preloads = await page
          .locator('link[rel="modulepreload"]')
          .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href)));
        expect(preloads.some((url) => chunkPattern(entry.module).test(url.pathname))).toBe(true);
        await expect(page).toHaveTitle(titleOf(entry, language));
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expectSingleMain(page);
        await expect(page.getByRole('main')).not.toBeEmpty();
        expect([...requests.modules]).toEqual([entry.module]);
        // The page's styles came inline with its HTML: the app does not fetch them again. (On this
        // demo server the pages also load the bridge simulator's panel, with its own styles and,
        // on a page that is not a share page, those of the share pages' code it shares.)
        expect(
          requests.stylesheets.filter(
            (path) =>
              !path.includes('/install-simulator-') &&
              !path.includes('/mount-simulator-panel-') &&
              (entry.kind === 'share' || !simulatorStylesheets().has(path)),
          ),
        ).toEqual([]);
        if (language === axeLanguage(testInfo.project.name)) await expectNoAxeViolations(page);
      }
    });
  }
});

test.describe('the language of a first load', () => {
  const cabinet = routeById('cabinet-share');

  for (const { locale, expected } of [
    { locale: 'zh-TW', expected: 'zh-CN' },
    { locale: 'en-GB', expected: 'en' },
    { locale: 'fr-FR', expected: 'zh-CN' },
  ] as const) {
    test(`follows the browser's language ${locale} (${expected}) unless ?lang= says otherwise`, async ({
      openContext,
    }) => {
      const context = await openContext({ locale });
      const page = await context.newPage();
      await open(page, samplePath(cabinet));
      await waitForApp(page);
      await expect(page.locator('html')).toHaveAttribute('lang', expected);
      await expect(page).toHaveTitle(titleOf(cabinet, expected));

      const other = expected === 'en' ? 'zh-CN' : 'en';
      await open(page, withLang(samplePath(cabinet), other));
      await waitForApp(page);
      await expect(page.locator('html')).toHaveAttribute('lang', other);
      await expect(page).toHaveTitle(titleOf(cabinet, other));
    });
  }
});

test.describe('the site root', () => {
  test.use({ locale: 'zh-CN' });

  test('/ redirects to the official website page', async ({ page }) => {
    const response = await open(page, '/');
    expect(response.status()).toBe(200);
    expect(response.request().redirectedFrom()?.url()).toMatch(/^http:\/\/[^/]+\/$/);
    expect(new URL(page.url()).pathname).toBe(fullPath(websiteRoute));
    await waitForApp(page);
    await expect(page).toHaveTitle(titleOf(websiteRoute, 'zh-CN'));
  });
});
