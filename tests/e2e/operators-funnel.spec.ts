import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { EventCounts } from '@guquan/contract/funnel';
import { FUNNEL_STEPS } from '@guquan/contract/funnel-events';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { funnelDay as day, ownServer } from './own-server.ts';

/**
 * The operators' funnel page as an operator uses it, at 1280 px and on a phone (390 px): the
 * numbers on the page are the funnel's (checked against /api/funnel), beside the 30 days before;
 * the form picks a channel and a period without a line of script, and says why it refuses one.
 * On a server of its own (the demo seed fills 60 days), on its own ports.
 */
// One server for the file: its tests run one after the other, in one worker.
test.describe.configure({ mode: 'serial' });

const SHOTS = '/tmp/shots-i31-funnel';
// Its own server and operators' listener: E2E_PORT + 62 and + 72.
const own = ownServer({ name: 'operators', port: 62 });

test.beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
});

async function totals(from: string, to: string): Promise<EventCounts> {
  return (await own.funnel({ from, to })).totals;
}

const number = (value: number) => value.toLocaleString('en-US');
const percent = (part: number, whole: number) =>
  whole === 0 ? '—' : `${((part / whole) * 100).toFixed(1)}%`;

/** Nothing sideways beyond the window, and no step's name cut. */
async function expectReadable(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  const cut = await page
    .locator('.step-name')
    .evaluateAll((names) =>
      names
        .filter((name) => name.scrollWidth > name.clientWidth + 1)
        .map((name) => name.textContent),
    );
  expect(cut).toEqual([]);
  // On a desktop every table shows all its columns: none scrolls sideways (by channel's last
  // column, the previous period's installs, sat out of sight at 1280 px beside its chart).
  if ((page.viewportSize()?.width ?? 0) >= 1024) {
    const scrolled = await page
      .locator('.scroll')
      .evaluateAll((boxes) =>
        boxes
          .filter((box) => box.scrollWidth > box.clientWidth + 1)
          .map((box) => box.closest('section')?.getAttribute('aria-labelledby')),
      );
    expect(scrolled).toEqual([]);
  }
}

for (const { width, height, name } of [
  { width: 1280, height: 900, name: 'desktop' },
  { width: 390, height: 844, name: 'phone' },
]) {
  test(`the funnel's numbers, the previous period and the form at ${width} px (${name})`, async ({
    openContext,
    consoleGuard,
  }) => {
    // The refused period below is a 400 page, which the browser logs.
    consoleGuard.allow(/status of 400 \(Bad Request\) \(http:\/\/127\.0\.0\.1:\d+\/funnel\?/);
    // Slow on a busy machine: axe twice over a long page.
    test.setTimeout(240_000);
    const context = await openContext({
      viewport: { width, height },
      isMobile: width < 800,
      hasTouch: width < 800,
    });
    const page = await context.newPage();
    const response = await page.goto(`${own.ops}/funnel?lang=en`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Share funnel · Operators');
    await expect(page.getByText(`${day(29)} to ${day(0)} (China time), 30 days.`)).toBeVisible();

    const now = await totals(day(29), day(0));
    const before = await totals(day(59), day(30));
    expect(now.viewed).toBeGreaterThan(0);
    expect(before.viewed).toBeGreaterThan(0);
    for (const [index, event] of FUNNEL_STEPS.entries()) {
      const step = page.locator(`#step-${event}`);
      await expect(step.locator('.count')).toHaveText(number(now[event]));
      await expect(step.locator('.count')).toBeVisible();
      await expect(step.locator('.previous')).toHaveText(number(before[event]));
      await expect(step.locator('.previous')).toBeVisible();
      const previousStep = FUNNEL_STEPS[index - 1];
      if (previousStep) {
        // Conversion from the step before: on the page, not only for screen readers.
        await expect(step.locator('.conversion')).toHaveText(
          percent(now[event], now[previousStep]),
        );
        await expect(step.locator('.conversion')).toBeVisible();
      }
    }
    // Installs named as such; the other events on the same scale, their share of views shown.
    await expect(page.locator('#step-handoff_claimed .step-name')).toContainText(
      'Installed (code claimed)',
    );
    await expect(page.locator('#side-guide_shown .conversion')).toHaveText(
      percent(now.guide_shown, now.viewed),
    );
    await expect(page.getByText('Bars on a logarithmic scale')).toBeVisible();
    // Hover values: the bar's title.
    await expect(page.locator('#step-viewed svg title')).toHaveText(
      `Viewed: ${number(now.viewed)} (Previous 30 days: ${number(before.viewed)})`,
    );
    await expectReadable(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/operators-en-${width}.png`, fullPage: true });

    // One channel, through the form (a GET form: no script).
    const safariViews = await page.locator('#by-channel-safari td').first().textContent();
    await page.getByLabel('Channel', { exact: true }).selectOption('safari');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await expect(page).toHaveURL(/[?&]channel=safari/);
    await expect(page.getByText('Channel: Safari only.')).toBeVisible();
    await expect(page.locator('#step-viewed .count')).toHaveText(safariViews ?? '');
    await expectReadable(page);
    await page.screenshot({ path: `${SHOTS}/operators-en-${width}-safari.png`, fullPage: true });

    // A reversed period: refused with a 400 that says what to do, the form kept.
    await page.getByLabel('From', { exact: true }).fill(day(1));
    await page.getByLabel('To', { exact: true }).fill(day(10));
    const [refused] = await Promise.all([
      page.waitForResponse((answer) => answer.url().includes('/funnel?')),
      page.getByRole('button', { name: 'Show', exact: true }).click(),
    ]);
    expect(refused.status()).toBe(400);
    await expect(page.getByRole('alert')).toContainText('“From” is after “To”: swap the two days.');
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(day(1));
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/operators-en-${width}-refused.png`, fullPage: true });
  });
}

test('the page in Chinese on a phone', async ({ openContext }) => {
  test.setTimeout(120_000);
  const context = await openContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto(`${own.ops}/funnel?lang=zh-CN&scale=linear`);
  await expect(page.locator('#step-handoff_claimed .step-name')).toContainText(
    '安装（口令被领取）',
  );
  await expect(page.getByText('条形为线性比例')).toBeVisible();
  await expectReadable(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/operators-zh-390.png`, fullPage: true });
});
