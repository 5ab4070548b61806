import {
  DEFAULT_TITLES,
  expect,
  expectSingleMain,
  expectTitle,
  fullPath,
  gotoRoute,
  hasMarker,
  LANGUAGES,
  navigateInApp,
  notFoundRoute,
  pageRoutes,
  routeById,
  samplePath,
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

for (const language of LANGUAGES) {
  test(`client-side navigation in ${language} reaches every route with its title and fetches each page's chunk only when it is first visited`, async ({
    page,
  }) => {
    const requests = watchRequests(page);
    await gotoRoute(page, websiteRoute, language);
    await waitForApp(page);
    await setMarker(page);
    const visited = new Set([websiteRoute.module]);
    const expectChunksOfVisitedRoutesOnly = () =>
      expect.poll(() => [...requests.modules].sort()).toEqual([...visited].sort());
    await expectChunksOfVisitedRoutesOnly();

    let previousTitle = titleOf(websiteRoute, language);
    for (const entry of [...pageRoutes.filter((route) => route !== websiteRoute), websiteRoute]) {
      const title = titleOf(entry, language);
      if (title === previousTitle) {
        // Only a new title shows that the router has finished: go through the not-found page.
        await navigateInApp(page, UNKNOWN_PATH);
        await expectTitle(page, DEFAULT_TITLES[language]);
        visited.add(notFoundRoute.module);
      }
      await navigateInApp(page, samplePath(entry));
      await expectTitle(page, title);
      await expectSingleMain(page);
      visited.add(entry.module);
      await expectChunksOfVisitedRoutesOnly();
      previousTitle = title;
    }

    await navigateInApp(page, UNKNOWN_PATH);
    await expectTitle(page, DEFAULT_TITLES[language]);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXTS[language].notFound);
    visited.add(notFoundRoute.module);
    await expectChunksOfVisitedRoutesOnly();

    // The language chosen for this page load stays, whatever a later URL asks for.
    const other = language === 'en' ? 'zh-CN' : 'en';
    await navigateInApp(page, withLang(UNKNOWN_PATH, other));
    await expectTitle(page, DEFAULT_TITLES[language]);
    await expect(page.locator('html')).toHaveAttribute('lang', language);

    expect(await hasMarker(page)).toBe(true);
    expect(requests.documents()).toBe(1);
  });
}

test('back and forward and a link inside the app set the title of each route, without a reload', async ({
  page,
}) => {
  const first = routeById('goods-share');
  const second = routeById('cabinet-share');
  const requests = watchRequests(page);
  await gotoRoute(page, first, 'zh-CN');
  await waitForApp(page);
  await setMarker(page);

  await navigateInApp(page, samplePath(second));
  await expectTitle(page, titleOf(second, 'zh-CN'));
  await navigateInApp(page, UNKNOWN_PATH);
  await expectTitle(page, DEFAULT_TITLES['zh-CN']);
  await page.getByRole('link', { name: TEXTS['zh-CN'].toWebsite }).click();
  await expect(page).toHaveURL(fullPath(websiteRoute));
  await expectTitle(page, titleOf(websiteRoute, 'zh-CN'));

  const steps = [
    { move: 'back', title: DEFAULT_TITLES['zh-CN'] },
    { move: 'back', title: titleOf(second, 'zh-CN') },
    { move: 'back', title: titleOf(first, 'zh-CN') },
    { move: 'forward', title: titleOf(second, 'zh-CN') },
    { move: 'forward', title: DEFAULT_TITLES['zh-CN'] },
    { move: 'forward', title: titleOf(websiteRoute, 'zh-CN') },
  ] as const;
  for (const { move, title } of steps) {
    await (move === 'back' ? page.goBack() : page.goForward());
    await expectTitle(page, title);
    await expectSingleMain(page);
  }

  expect(await hasMarker(page)).toBe(true);
  expect(requests.documents()).toBe(1);
});

test('a page reached inside the app fetches the styles its first load did not carry, and uses them', async ({
  page,
}) => {
  const requests = watchRequests(page);
  await gotoRoute(page, websiteRoute, 'zh-CN');
  await waitForApp(page);
  expect(requests.stylesheets).toEqual([]);
  await navigateInApp(page, samplePath(routeById('cabinet-share')));
  await expectTitle(page, titleOf(routeById('cabinet-share'), 'zh-CN'));
  await expect
    .poll(() =>
      requests.stylesheets.some((path) => /\/assets\/share-pages-[\w-]+\.css$/.test(path)),
    )
    .toBe(true);
  const grid = page.locator('main li:has(a[href*="goodsShare"])').first().locator('..');
  await expect(grid).toHaveCSS('display', 'grid');
});
