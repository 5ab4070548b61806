import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { DesignView } from '@guquan/contract/design';
import type { MembershipResponse } from '@guquan/contract/membership';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  layoutShift,
  open,
  test,
  waitForApp,
} from './fixtures.ts';
import { DEMO_MODE_META } from '../../apps/server/src/pages/page-document.ts';
import { membershipTexts } from '../../apps/web/src/features/membership/membership-texts.ts';
import { API, logIn, playTheApp } from './demo-app.ts';

/**
 * Issue 31, section 7: the in-app pages say what matters before the tap. Membership: the benefits
 * above the plans, the longer plans' price per month and one "best value" worked out from the
 * prices, no empty "not a member" card, no second purchase while one waits for approval. Redeem:
 * what a redemption gives (the file, the use allowed); a retired design shows no price and leads
 * to the app's other designs. Deletion: the demo's dates are recent. Nothing here changes the demo
 * data (the one purchase asked for is never approved), at 390 and 320 px, in both languages.
 */
const SHOTS = '/tmp/shots-i31-inapp';
mkdirSync(SHOTS, { recursive: true });

const WIDTHS = [390, 320] as const;
const LANGUAGES = [
  {
    lang: 'en',
    benefits: 'Member benefits',
    plans: 'Choose a plan',
    yearly: /Yearly membership/,
    bestValue: 'Best value',
    perMonth: '¥19.83 a month',
    notMember: /not a member/i,
    gets: 'What you get',
    getsFile: 'PNG file, 2048 × 4096 pixels, 15.7 MB',
    getsUse: 'Commercial use allowed',
    price: 'Price',
    retired: 'No longer available',
    otherDesigns: 'See other designs',
    since: /^since /,
  },
  {
    lang: 'zh-CN',
    benefits: '会员权益',
    plans: '选择套餐',
    yearly: /连续包年会员/,
    bestValue: '最划算',
    perMonth: '折合 ¥19.83/月',
    notMember: /还不是会员/,
    gets: '兑换后你将获得',
    getsFile: 'PNG 文件，2048 × 4096 像素，15.7 MB',
    getsUse: '可商用',
    price: '兑换价格',
    retired: '设计图已下架',
    otherDesigns: '看看其他设计图',
    since: /^自 /,
  },
] as const;

function url(path: string, lang: string, query = ''): string {
  return `${BASE_PATH}/APPPage/${path}?${query}${query ? '&' : ''}lang=${lang}`;
}

/** No part of the page wider than the screen. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const width of WIDTHS) {
  for (const t of LANGUAGES) {
    test.describe(`in-app pages at ${width} px, ${t.lang}`, () => {
      test.use({ viewport: { width, height: 844 } });

      test('membership before its state is known: outside the app or logged out, nothing moves', async ({
        page,
      }) => {
        const text = membershipTexts(t.lang);
        // A browser outside the app: the production page, without the demo's simulator.
        await page.route(/\/APPPage\/iosVipBuy/, async (route) => {
          const response = await route.fetch();
          const body = (await response.text()).replace(DEMO_MODE_META, '');
          await route.fulfill({ response, body });
        });
        await open(page, url('iosVipBuy', t.lang));
        await waitForApp(page);
        await expect(page.getByText(text.onlyIosBrowser)).toBeVisible();
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        // The skeleton's card is as tall as the notice's (it moved the page by 0.067 before).
        expect(await layoutShift(page)).toBeLessThan(0.001);
        await expectNoAxeViolations(page);
        await page.unrouteAll();

        // The app with nobody logged in (the simulator): the log-in card takes the same place.
        await playTheApp(page, null);
        await open(page, url('iosVipBuy', t.lang));
        await waitForApp(page);
        await expect(page.getByRole('button', { name: text.logIn })).toBeVisible();
        expect(await layoutShift(page)).toBeLessThan(0.001);
      });

      test('membership: benefits above the plans, per-month price and best value, no empty card', async ({
        page,
        request,
      }) => {
        const session = await logIn(request, 'yuyuan');
        const overview = await request.get(`${API}/membership`, {
          headers: { authorization: `Bearer ${session.token}` },
        });
        expect(((await overview.json()) as MembershipResponse).membership.status).toBe('none');
        await playTheApp(page, session);
        await open(page, url('iosVipBuy', t.lang));
        await waitForApp(page);
        const plans = page.getByRole('heading', { name: t.plans });
        await expect(plans).toBeVisible();
        const benefits = page.getByRole('heading', { name: t.benefits });
        const [benefitsY, plansY] = await Promise.all([
          benefits.evaluate((element) => element.getBoundingClientRect().top),
          plans.evaluate((element) => element.getBoundingClientRect().top),
        ]);
        expect(benefitsY).toBeLessThan(plansY);
        await expect(page.getByText(t.notMember)).toHaveCount(0);
        await expect(page.locator('[data-status]')).toHaveCount(0);
        // The simulator's App Store prices: ¥25 a month, ¥68 a quarter, ¥238 a year.
        const yearly = page.locator('label', { has: page.getByRole('radio', { name: t.yearly }) });
        await expect(yearly).toContainText(t.bestValue);
        await expect(yearly).toContainText(t.perMonth);
        await expect(page.getByText(t.bestValue, { exact: true })).toHaveCount(1);
        await expectNoSidewaysScroll(page);
        await expectNoAxeViolations(page);
        await yearly.scrollIntoViewIfNeeded();
        await page.screenshot({
          path: `${SHOTS}/membership-${t.lang}-${width}.png`,
          fullPage: true,
        });
      });

      test('membership: once a plan is chosen, its buy button and the consent are in view; the terms stay readable (issue 39)', async ({
        page,
        request,
      }) => {
        const text = membershipTexts(t.lang);
        const session = await logIn(request, 'yuyuan');
        await playTheApp(page, session);
        await open(page, url('iosVipBuy', t.lang));
        await waitForApp(page);
        const viewport = page.viewportSize() ?? { width, height: 844 };
        const inView = async (locator: ReturnType<Page['locator']>) => {
          const box = await locator.boundingBox();
          expect(box).not.toBeNull();
          expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
          expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(viewport.height);
        };
        const checkoutInView = async () => {
          await inView(page.getByRole('button', { name: /^(Subscribe for|开通会员) / }));
          await inView(page.getByRole('checkbox'));
          await inView(page.getByRole('link', { name: text.agreement }));
          await inView(page.getByRole('link', { name: text.privacy }));
        };
        // The plan the page chose, then one the visitor taps: the button is in view either way.
        await checkoutInView();
        await page.locator('label', { has: page.getByRole('radio', { name: t.yearly }) }).click();
        await expect(
          page.getByRole('button', { name: text.buy(`¥238.00${text.perPeriod.year}`) }),
        ).toBeVisible();
        await checkoutInView();
        // Scrolled to the end, the terms are read in full above the consent, nothing over them.
        await page.evaluate(() => {
          window.scrollTo(0, document.documentElement.scrollHeight);
        });
        const terms = page.getByText(text.terms, { exact: true });
        const [termsBox, consentBox] = await Promise.all([
          terms.boundingBox(),
          page.getByRole('checkbox').boundingBox(),
        ]);
        expect((termsBox?.y ?? 0) + (termsBox?.height ?? 0)).toBeLessThanOrEqual(
          consentBox?.y ?? 0,
        );
        await inView(terms);
        await expectNoAxeViolations(page);
      });

      test('redeem: what a redemption gives before the button; a retired design has no price and leads on', async ({
        page,
        request,
      }) => {
        const session = await logIn(request, 'yuyuan');
        await playTheApp(page, session);
        await open(page, url('cashDesign', t.lang, `designId=${DEMO_IDS.designs.premium}`));
        await waitForApp(page);
        const gets = page.locator('section', {
          has: page.getByRole('heading', { name: t.gets }),
        });
        await expect(gets).toContainText(t.getsFile);
        await expect(gets).toContainText(t.getsUse);
        await expectNoSidewaysScroll(page);
        await expectNoAxeViolations(page);
        await page.screenshot({ path: `${SHOTS}/redeem-${t.lang}-${width}.png`, fullPage: true });

        const response = await request.get(`${API}/designs/${DEMO_IDS.designs.retired}`, {
          headers: { authorization: `Bearer ${session.token}` },
        });
        const { design } = (await response.json()) as DesignView;
        expect(design.available).toBe(false);
        await open(page, url('cashDesign', t.lang, `designId=${DEMO_IDS.designs.retired}`));
        await waitForApp(page);
        await expect(page.getByRole('heading', { name: t.retired })).toBeVisible();
        await expect(page.getByText(t.price, { exact: true })).toHaveCount(0);
        await expect(page.getByText(String(design.pricePoints))).toHaveCount(0);
        await expect(page.getByRole('heading', { name: t.gets })).toHaveCount(0);
        await expectNoSidewaysScroll(page);
        await expectNoAxeViolations(page);
        await page.screenshot({
          path: `${SHOTS}/redeem-retired-${t.lang}-${width}.png`,
          fullPage: true,
        });
        await page.getByRole('button', { name: t.otherDesigns }).click();
        await expect(page.getByText('“designs”', { exact: false })).toBeVisible();
      });

      test('deletion: the demo blocker is dated within the last days, not a year back', async ({
        page,
        request,
      }) => {
        const session = await logIn(request, 'karasuno');
        await playTheApp(page, session);
        await open(page, url('logOut', t.lang));
        await waitForApp(page);
        const since = page.getByText(t.since).first();
        await expect(since).toBeVisible();
        const status = await request.get(`${API}/account/deletion`, {
          headers: { authorization: `Bearer ${session.token}` },
        });
        const body = (await status.json()) as { blockers: { since: string }[] };
        const days = (Date.now() - Date.parse(body.blockers[0]?.since ?? '')) / 86_400_000;
        expect(days).toBeGreaterThanOrEqual(0);
        expect(days).toBeLessThan(7);
        const shown = new Intl.DateTimeFormat(t.lang, { dateStyle: 'long' }).format(
          new Date(body.blockers[0]?.since ?? ''),
        );
        await expect(since).toContainText(shown.slice(0, 4));
        await expectNoSidewaysScroll(page);
        await expectNoAxeViolations(page);
        await page.screenshot({ path: `${SHOTS}/deletion-${t.lang}-${width}.png`, fullPage: true });
      });
    });
  }
}

test.describe('membership: a purchase waiting for approval', () => {
  for (const t of [
    { lang: 'en', buy: /^Subscribe for/, reason: /is waiting for approval \(Ask to Buy\)/ },
    { lang: 'zh-CN', buy: /^开通会员/, reason: /正在等待批准/ },
  ] as const) {
    test(`keeps the buy button disabled, saying why, also after a reload (${t.lang})`, async ({
      page,
      request,
      consoleGuard,
    }) => {
      consoleGuard.allow(/Failed to load resource: net::ERR_FAILED/);
      await page.setViewportSize({ width: 320, height: 700 });
      const session = await logIn(request, 'yuyuan');
      await playTheApp(page, session, { purchaseOutcome: 'pending' });
      // The approval never comes (the simulated App Store cannot sign it): nothing is bought.
      await page.route(`**${API}/demo/storekit/transactions`, (route) => route.abort('failed'));
      await open(page, url('iosVipBuy', t.lang));
      await waitForApp(page);
      await page.getByRole('checkbox').check();
      const buy = page.getByRole('button', { name: t.buy });
      await buy.click();
      await expect(buy).toHaveAttribute('aria-disabled', 'true');
      await expect(buy).toHaveAccessibleDescription(t.reason);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SHOTS}/membership-awaiting-${t.lang}-320.png` });

      await page.reload();
      await waitForApp(page);
      const again = page.getByRole('button', { name: t.buy });
      await expect(again).toHaveAttribute('aria-disabled', 'true');
      await expect(again).toHaveAccessibleDescription(t.reason);
      const overview = await request.get(`${API}/membership`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(((await overview.json()) as MembershipResponse).membership.status).toBe('none');
    });
  }
});
