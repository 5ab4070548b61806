import {
  BASE_PATH,
  DEFAULT_TITLES,
  expect,
  expectNoAxeViolations,
  expectSingleMain,
  expectTitle,
  fullPath,
  hasMarker,
  LANGUAGES,
  notFoundRoute,
  open,
  setMarker,
  test,
  TEXTS,
  titleOf,
  UNKNOWN_PATH,
  waitForApp,
  watchRequests,
  websiteRoute,
  withLang,
} from './fixtures.ts';

test.beforeEach(({ consoleGuard }) => {
  // Chromium reports the 404 status of the document itself.
  consoleGuard.allow(
    /^error: Failed to load resource: the server responded with a status of 404 \(Not Found\) \(http:\/\/[^/]+\/anime_merch_web\/no-such-[\w-]+(\?lang=[\w-]+)?\)$/,
  );
});

for (const language of LANGUAGES) {
  test(`an unknown path answers 404 with the not-found page in ${language}: default title, no axe violations, a link to the website`, async ({
    page,
  }) => {
    const requests = watchRequests(page);
    const response = await open(page, withLang(UNKNOWN_PATH, language));
    expect(response.status()).toBe(404);
    expect(await response.text()).toContain(`<title>${DEFAULT_TITLES[language]}</title>`);
    await waitForApp(page);

    const text = TEXTS[language];
    await expectTitle(page, DEFAULT_TITLES[language]);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.notFound);
    await expectSingleMain(page);
    expect([...requests.modules]).toEqual([notFoundRoute.module]);
    await expectNoAxeViolations(page);

    await setMarker(page);
    await page.getByRole('link', { name: text.toWebsite }).click();
    await expect(page).toHaveURL(fullPath(websiteRoute));
    await expectTitle(page, titleOf(websiteRoute, language));
    expect(await hasMarker(page), 'the link navigates inside the app').toBe(true);
  });
}

test.describe('outside the base path', () => {
  test.use({ locale: 'zh-CN' });

  test('a path outside the base path ends on the same not-found page with 404', async ({
    page,
  }) => {
    const response = await open(page, '/no-such-thing');
    expect(response.status()).toBe(404);
    expect(new URL(page.url()).pathname).toBe(`${BASE_PATH}/no-such-thing`);
    await waitForApp(page);
    await expectTitle(page, DEFAULT_TITLES['zh-CN']);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS['zh-CN'].notFound);
    await expect(page.getByRole('link', { name: TEXTS['zh-CN'].toWebsite })).toHaveAttribute(
      'href',
      fullPath(websiteRoute),
    );
    await expectSingleMain(page);
  });
});
