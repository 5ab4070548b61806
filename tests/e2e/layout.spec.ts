import type { Page } from '@playwright/test';
import { expect, gotoRoute, test, waitForApp, websiteRoute } from './fixtures.ts';

const WIDTHS = [320, 375, 768, 1280] as const;
const HEIGHT = 800;

interface Layout {
  clientWidth: number;
  /** What the layout script set on <html> and <body> (empty before it runs). */
  rootInline: string;
  bodyInline: string;
  /** What the browser uses. */
  rootComputed: string;
  bodyComputed: string;
  hairlines: boolean;
}

function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const html = document.documentElement;
    return {
      clientWidth: html.clientWidth,
      rootInline: html.style.fontSize,
      bodyInline: document.body.style.fontSize,
      rootComputed: getComputedStyle(html).fontSize,
      bodyComputed: getComputedStyle(document.body).fontSize,
      hairlines: html.classList.contains('hairlines'),
    };
  });
}

const px = (value: number) => `${value}px`;

async function openWebsite(page: Page): Promise<void> {
  await gotoRoute(page, websiteRoute, 'zh-CN');
  await waitForApp(page);
}

test(`the root font size is one tenth of the viewport width at ${WIDTHS.join(', ')} px`, async ({
  page,
}) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await openWebsite(page);
    const layout = await layoutOf(page);
    expect(layout.clientWidth, `layout width at ${width}px`).toBe(width);
    expect(layout.rootInline, `root font size at ${width}px`).toBe(px(width / 10));
    expect(layout.rootComputed, `root font size at ${width}px`).toBe(px(width / 10));
  }
});

test('the root font size follows a resize and a page restored from the back-forward cache', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: HEIGHT });
  await openWebsite(page);
  expect((await layoutOf(page)).rootInline).toBe(px(37.5));

  for (const width of [768, 320]) {
    await page.setViewportSize({ width, height: HEIGHT });
    await expect.poll(async () => (await layoutOf(page)).rootInline).toBe(px(width / 10));
  }

  // Playwright's Chromium runs without a back-forward cache: send the event such a restore fires.
  const rootAfterPageShow = (persisted: boolean) =>
    page.evaluate((restored) => {
      document.documentElement.style.fontSize = '1px';
      dispatchEvent(new PageTransitionEvent('pageshow', { persisted: restored }));
      return document.documentElement.style.fontSize;
    }, persisted);
  expect(await rootAfterPageShow(false)).toBe('1px');
  expect(await rootAfterPageShow(true)).toBe(px(32));
});

for (const dpr of [1, 2, 3]) {
  test(`at devicePixelRatio ${dpr} the body font size is ${12 * dpr}px, hairlines are ${dpr >= 2 ? 'on' : 'off'}, and the first paint already has the final sizes`, async ({
    openContext,
  }) => {
    const viewport = { width: 375, height: HEIGHT };
    const page = await (await openContext({ deviceScaleFactor: dpr, viewport })).newPage();
    await openWebsite(page);
    expect(await layoutOf(page)).toEqual({
      clientWidth: 375,
      rootInline: px(37.5),
      bodyInline: px(12 * dpr),
      rootComputed: px(37.5),
      bodyComputed: px(12 * dpr),
      hairlines: dpr >= 2,
    });

    // Without JavaScript the page shows what HTML and CSS give before any script runs; with no
    // script at all, the sizes at each width are those a first paint at that width would have.
    const firstPaint = await (
      await openContext({ deviceScaleFactor: dpr, viewport, javaScriptEnabled: false })
    ).newPage();
    await gotoRoute(firstPaint, websiteRoute, 'zh-CN');
    for (const width of WIDTHS) {
      await firstPaint.setViewportSize({ width, height: HEIGHT });
      const layout = await layoutOf(firstPaint);
      expect(layout.rootInline, 'no script has run').toBe('');
      expect(layout.rootComputed, `root font size at ${width}px`).toBe(px(width / 10));
      expect(layout.bodyComputed, `body font size at ${width}px`).toBe(px(12 * dpr));
    }
  });
}
