import {
  expect,
  expectSingleMain,
  expectTitle,
  fullPath,
  open,
  routeById,
  samplePath,
  setMarker,
  hasMarker,
  test,
  titleOf,
  waitForApp,
  watchRequests,
  websiteRoute,
  withLang,
} from './fixtures.ts';

/**
 * A script (an in-app browser's, an analytics tag) may change the address with
 * history.pushState while the server's page is on screen and before the app has started. The app
 * must still hydrate the page the server rendered (no React error #418, which the console guard
 * would report) and then show the page of the new address, with its title.
 */
const cases = [
  {
    name: 'another page',
    from: withLang(fullPath(websiteRoute), 'zh-CN'),
    to: samplePath(routeById('privacy-policy')),
    title: titleOf(routeById('privacy-policy'), 'zh-CN'),
    heading: /隐私政策/,
  },
  {
    name: 'a share page with another item',
    from: withLang(samplePath(routeById('notes-share')), 'zh-CN'),
    to: samplePath(routeById('goods-share')),
    title: titleOf(routeById('goods-share'), 'zh-CN'),
    heading: undefined,
  },
] as const;

for (const { name, from, to, title, heading } of cases) {
  test(`an address pushed before the app starts (${name}) is shown after hydrating the server's page`, async ({
    page,
  }) => {
    await page.addInitScript(
      ({ target }) => {
        // After the server's page is parsed, before the boot script starts the app (it waits for
        // a frame, then preloads, then imports the entry).
        document.addEventListener('DOMContentLoaded', () => {
          history.pushState({ pushedBy: 'a script' }, '', target);
        });
      },
      { target: to },
    );
    const requests = watchRequests(page);
    await open(page, from);
    await setMarker(page);
    await waitForApp(page);
    await expectTitle(page, title);
    await expectSingleMain(page);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(to);
    if (heading) await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    // The same document throughout: the app navigated, it did not reload.
    expect(await hasMarker(page)).toBe(true);
    expect(requests.documents()).toBe(1);
    // The state the script pushed is kept with the entry.
    expect(await page.evaluate(() => (history.state as { usr?: unknown } | null)?.usr)).toEqual({
      pushedBy: 'a script',
    });
  });
}
