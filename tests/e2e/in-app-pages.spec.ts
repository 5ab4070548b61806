import type { APIRequestContext, Page } from '@playwright/test';
import type { DesignView } from '@guquan/contract/design';
import type { MembershipResponse } from '@guquan/contract/membership';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  expectPageBehindInert,
  expectSingleMain,
  open,
  test,
  waitForApp,
} from './fixtures.ts';
import { API, logIn, playTheApp, type DemoSession } from './demo-app.ts';

/**
 * The in-app pages driven through the bridge simulator, as an app user would meet them: the
 * simulator plays the app (its session, its StoreKit), the real server does the rest.
 */

/**
 * These tests change the demo data (points spent, memberships bought, a deletion requested) of
 * the one server the run shares, so they are tagged @once and run in the iPhone project only
 * (playwright.config.ts), the platform of StoreKit; and one after another, since a deletion ends
 * its user's tokens issued before it.
 */
test.describe.configure({ mode: 'serial' });

/**
 * The app refreshing its token with the platform: the same log-in (the token's auth_time), issued
 * now. A confirmed deletion ends the tokens issued before it; a refreshed one goes on.
 */
async function refreshed(request: APIRequestContext, session: DemoSession): Promise<DemoSession> {
  const payload = session.token.split('.')[1] ?? '';
  const { auth_time: authTime } = JSON.parse(
    Buffer.from(payload, 'base64url').toString('utf8'),
  ) as { auth_time: number };
  const response = await request.post(`${API}/demo/sessions`, {
    data: { userId: session.userId, authTime },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as DemoSession;
}

function designUrl(id: string): string {
  return `${BASE_PATH}/APPPage/cashDesign?designId=${id}&lang=en`;
}

async function readDesign(request: APIRequestContext, session: DemoSession, id: string) {
  const response = await request.get(`${API}/designs/${id}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as DesignView).viewer;
}

test.describe('redeem a design drawing @once', () => {
  test('redeems once with confirmation, shows the new balance and opens the drawing in the app', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'karasuno');
    const before = await readDesign(request, session, DEMO_IDS.designs.sakura);
    expect(before.redemption).toBeNull();
    await playTheApp(page, session);
    await open(page, designUrl(DEMO_IDS.designs.sakura));
    await waitForApp(page);
    await expectSingleMain(page);
    await expect(page.getByText(`${before.balance} points`).first()).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm redemption' });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page, '[role="dialog"]');
    await expectPageBehindInert(page, dialog);
    // A double tap on the confirmation still redeems once.
    await dialog.getByRole('button', { name: 'Redeem' }).dblclick();
    await expect(page.getByRole('heading', { name: 'Redeemed' })).toBeVisible();

    const after = await readDesign(request, session, DEMO_IDS.designs.sakura);
    expect(after.redemption).not.toBeNull();
    expect(after.balance).toBe(before.balance - 200);
    await expect(page.getByText(`You have ${after.balance} points left`)).toBeVisible();

    // Already in the app: the page opens the app's own screen of the drawing, through the bridge.
    await expect(page.getByRole('button', { name: /Open in the app/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'View the design' }).click();
    await expect(page.getByText(`design/${DEMO_IDS.designs.sakura}`)).toBeVisible();
  });

  test('the designer is told the design is their own, and the server refuses to sell it to them', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'beika');
    const before = await readDesign(request, session, DEMO_IDS.designs.shelf);
    expect(before.ownDesign).toBe(true);
    await playTheApp(page, session);
    await open(page, designUrl(DEMO_IDS.designs.shelf));
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'This is your own design' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Redeem', exact: true })).toHaveCount(0);
    const refused = await request.post(`${API}/designs/${DEMO_IDS.designs.shelf}/redemptions`, {
      headers: {
        authorization: `Bearer ${session.token}`,
        'idempotency-key': '6f1c2c52-9d7a-4a57-9d33-7a4b4d2f0c11',
      },
    });
    expect(refused.status()).toBe(409);
    expect(await readDesign(request, session, DEMO_IDS.designs.shelf)).toEqual(before);
  });

  test('too few points leads to the app’s page on earning them', async ({ page, request }) => {
    const session = await logIn(request, 'satoru');
    await playTheApp(page, session);
    await open(page, designUrl(DEMO_IDS.designs.shelf));
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'Not enough points' })).toBeVisible();
    await page.getByRole('button', { name: 'How to earn points' }).click();
    await expect(page.getByText('points/earn')).toBeVisible();
  });

  for (const { name, user, design, heading } of [
    { name: 'not enough points', user: 'satoru', design: 'shelf', heading: 'Not enough points' },
    {
      name: 'already redeemed',
      user: 'yuyuan',
      design: 'starry',
      heading: 'You have redeemed this design',
    },
    {
      name: 'no longer available',
      user: 'karasuno',
      design: 'retired',
      heading: 'No longer available',
    },
  ] as const) {
    test(`shows "${name}" and changes nothing`, async ({ page, request }) => {
      const session = await logIn(request, user);
      const before = await readDesign(request, session, DEMO_IDS.designs[design]);
      await playTheApp(page, session);
      await open(page, designUrl(DEMO_IDS.designs[design]));
      await waitForApp(page);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      await expectNoAxeViolations(page);
      const after = await readDesign(request, session, DEMO_IDS.designs[design]);
      expect(after.balance).toBe(before.balance);
    });
  }

  test('an answer lost on the way back is retried with the same key: the points leave once', async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(/Failed to load resource: net::ERR_FAILED/);
    const session = await logIn(request, 'karasuno');
    const before = await readDesign(request, session, DEMO_IDS.designs.shelf);
    expect(before.redemption).toBeNull();
    await playTheApp(page, session);
    await open(page, designUrl(DEMO_IDS.designs.shelf));
    await waitForApp(page);

    // The server redeems, but the phone never hears back.
    const redemptions = `**${API}/designs/${DEMO_IDS.designs.shelf}/redemptions`;
    await page.route(redemptions, async (route) => {
      await route.fetch();
      await route.abort('failed');
    });
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Confirm redemption' })
      .getByRole('button', { name: 'Redeem' })
      .click();
    await expect(page.getByText(/We did not get an answer/)).toBeVisible();
    expect((await readDesign(request, session, DEMO_IDS.designs.shelf)).balance).toBe(
      before.balance - 150,
    );

    // The retry carries the same key: the server answers with the redemption it made.
    await page.unroute(redemptions);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'Redeemed' })).toBeVisible();
    const after = await readDesign(request, session, DEMO_IDS.designs.shelf);
    expect(after.balance).toBe(before.balance - 150);
    expect(after.redemption).not.toBeNull();
  });

  test('a design that cannot be loaded offers a retry', async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(/Failed to load resource: net::ERR_FAILED/);
    const session = await logIn(request, 'karasuno');
    await playTheApp(page, session);
    const design = `**${API}/designs/${DEMO_IDS.designs.premium}`;
    await page.route(design, (route) => route.abort('failed'));
    await open(page, designUrl(DEMO_IDS.designs.premium));
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'Connection problem' })).toBeVisible();
    await page.unroute(design);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'Not enough points' })).toBeVisible();
  });

  test('shows a logged-out user what they would redeem, asks them to log in through the app, then shows their points', async ({
    page,
  }) => {
    await playTheApp(page, null, { autoLogin: true });
    await open(page, designUrl(DEMO_IDS.designs.shelf));
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'Log in first' })).toBeVisible();
    // Issue 39: what would be redeemed first (title, preview, price), the log-in as the next step.
    const title = page.getByRole('heading', { level: 1 });
    await expect(title).not.toHaveText('');
    await expect(page.getByRole('img', { name: /^Design preview/ })).toBeVisible();
    await expect(page.getByText(/^\d+ points$/).first()).toBeVisible();
    await expect(page.getByText('Your points', { exact: true })).toHaveCount(0);
    const [titleY, logInY] = await Promise.all([
      title.evaluate((element) => element.getBoundingClientRect().top),
      page
        .getByRole('heading', { name: 'Log in first' })
        .evaluate((element) => element.getBoundingClientRect().top),
    ]);
    expect(titleY).toBeLessThan(logInY);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Redeem', exact: true })).toBeVisible();
  });

  test('a missing design id and a plain browser (no app) each say what to do', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'karasuno');
    await playTheApp(page, session);
    await open(page, `${BASE_PATH}/APPPage/cashDesign?lang=en`);
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'This link is incomplete' })).toBeVisible();
  });
});

test.describe('membership centre (iOS) @once', () => {
  function membershipUrl(): string {
    return `${BASE_PATH}/APPPage/iosVipBuy?lang=en`;
  }

  async function readMembership(request: APIRequestContext, session: DemoSession) {
    const response = await request.get(`${API}/membership`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(response.status()).toBe(200);
    return ((await response.json()) as MembershipResponse).membership;
  }

  test('buys a plan: consent first, App Store price, verifying, then active, and the app finishes the transaction', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'chigu');
    expect((await readMembership(request, session)).status).toBe('none');
    await playTheApp(page, session);
    await open(page, membershipUrl());
    await waitForApp(page);
    // No status card for someone who never was a member: the benefits, then the plans.
    await expect(page.getByRole('heading', { name: 'Choose a plan' })).toBeVisible();
    await expect(page.getByText(/not a member/i)).toHaveCount(0);
    await expect(page.getByText('¥25.00').first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Membership agreement' })).toHaveAttribute(
      'href',
      /\/agreement\/vip\/VipAgreement/,
    );
    await expectNoAxeViolations(page);

    // The button offers the purchase; the box, not the button's words, is the consent.
    const buy = page.getByRole('button', { name: 'Subscribe for ¥25.00/month' });
    await buy.click();
    await expect(page.getByText(/Please read and agree/)).toBeVisible();
    expect((await readMembership(request, session)).status).toBe('none');

    await page.getByRole('checkbox').check();
    await buy.click();
    await expect(page.getByText(/^Done! Your membership is valid until/)).toBeVisible();
    expect((await readMembership(request, session)).status).toBe('active');
    await expect(page.getByText('Your membership is active', { exact: true })).toBeVisible();
    // A member is not sold the membership again: the page is the member's now.
    await expect(page.getByRole('heading', { name: 'Your membership' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Subscribe/ })).toHaveCount(0);
    const unfinished = await page.evaluate(
      () => localStorage.getItem('guquan.bridgeSimulator.transactions') ?? '[]',
    );
    const kept = JSON.parse(unfinished) as { finished?: boolean }[];
    expect(kept.filter((entry) => entry.finished === false)).toEqual([]);
  });

  test('an active member sees their plan and renewal date, and changes the plan through StoreKit, never buying again', async ({
    page,
    request,
  }, testInfo) => {
    const session = await logIn(request, 'satoru');
    const before = await readMembership(request, session);
    expect(before).toMatchObject({ status: 'active', productId: 'vip.yearly' });
    await playTheApp(page, session);
    await open(page, membershipUrl());
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'Your membership' })).toBeVisible();
    await expect(page.getByText('Yearly membership · ¥238.00/year')).toBeVisible();
    const renewal = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
      new Date(before.expiresAt ?? ''),
    );
    await expect(page.getByText(`Renews on ${renewal}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Subscribe/ })).toHaveCount(0);
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath('membership-member.png'), fullPage: true });

    // A downgrade waits for the renewal: nothing is bought, the expiry stays.
    // The option stays where it was (its button becomes the scheduled change).
    const option = page.getByRole('listitem').filter({ hasText: 'Monthly membership' });
    await option.getByRole('button', { name: /Change to Monthly membership/ }).click();
    await expect(option.getByRole('status')).toHaveText(
      `Done: it changes to Monthly membership when it renews on ${renewal}; until then you keep the current plan.`,
    );
    await expect(option.getByRole('status')).toBeInViewport();
    expect(await readMembership(request, session)).toEqual({
      ...before,
      renewalProductId: 'vip.monthly',
    });
    // Keeping the yearly plan undoes it.
    await page.getByRole('button', { name: 'Keep Yearly membership' }).click();
    await expect(
      page.getByText('You keep the current plan: nothing changes at the renewal.'),
    ).toBeVisible();
    expect(await readMembership(request, session)).toEqual({
      ...before,
      renewalProductId: 'vip.yearly',
    });

    // The App Store's own management opens from the page and comes back to it.
    await page.getByRole('button', { name: 'Manage subscription' }).click();
    await page.getByRole('button', { name: 'Back to the page' }).click();
    await expect(page.getByText('Yearly membership · ¥238.00/year')).toBeVisible();
    expect(await readMembership(request, session)).toEqual({
      ...before,
      renewalProductId: 'vip.yearly',
    });
  });

  test('the chosen plan and the consent survive reading the agreement and coming back', async ({
    page,
    request,
  }, testInfo) => {
    const session = await logIn(request, 'yuyuan');
    await playTheApp(page, session);
    await page.setViewportSize({ width: 320, height: 640 });
    await open(page, membershipUrl());
    await waitForApp(page);
    await page.screenshot({
      path: testInfo.outputPath('membership-non-member.png'),
      fullPage: true,
    });
    await page.getByRole('radio', { name: /Yearly membership/ }).check();
    await page.getByRole('checkbox').check();
    await page.getByRole('link', { name: 'Membership agreement' }).click();
    await expect(page).toHaveURL(/\/agreement\/vip\/VipAgreement/);
    await page.goBack();
    await waitForApp(page);
    await expect(page.getByRole('radio', { name: /Yearly membership/ })).toBeChecked();
    await expect(page.getByRole('checkbox')).toBeChecked();
    await expect(page.getByRole('button', { name: 'Subscribe for ¥238.00/year' })).toBeVisible();
  });

  test('a purchase that could not reach the server is kept, and sent again on the next visit', async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(/Failed to load resource: net::ERR_FAILED/);
    const session = await logIn(request, 'beika');
    await playTheApp(page, session);
    await open(page, membershipUrl());
    await waitForApp(page);
    const transactions = `**${API}/membership/transactions`;
    await page.route(transactions, (route) => route.abort('failed'));
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: /^Subscribe for/ }).click();
    await expect(page.getByText(/You have paid, but our server cannot be reached/)).toBeVisible();
    expect((await readMembership(request, session)).status).toBe('none');

    await page.unroute(transactions);
    await page.reload();
    await waitForApp(page);
    await expect(page.getByText('Your membership is active', { exact: true })).toBeVisible();
    expect((await readMembership(request, session)).status).toBe('active');
  });

  test('a cancelled purchase says so and charges nothing', async ({ page, request }) => {
    const session = await logIn(request, 'conductor');
    await playTheApp(page, session, { purchaseOutcome: 'cancel' });
    await open(page, membershipUrl());
    await waitForApp(page);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: /^Subscribe for/ }).click();
    await expect(page.getByText(/The purchase was cancelled/)).toBeVisible();
    expect((await readMembership(request, session)).status).toBe('none');
  });

  test('a purchase the App Store fails, or one waiting for approval, says so and grants nothing yet', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'yuyuan');
    await playTheApp(page, session, { purchaseOutcome: 'fail' });
    await open(page, membershipUrl());
    await waitForApp(page);
    await page.getByRole('checkbox').check();
    const buy = page.getByRole('button', { name: /^Subscribe for/ });
    await buy.click();
    // In the page's words, where the tap was, with a next step; never the App Store's raw text.
    const feedback = page.locator('[role="status"]', {
      hasText: 'The App Store could not complete the purchase',
    });
    await expect(feedback).toBeInViewport();
    await expect(page.getByText(/simulated App Store error/)).toHaveCount(0);
    expect((await readMembership(request, session)).status).toBe('none');
  });

  test('a purchase waiting for approval says so, and becomes a membership when the App Store approves it', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'conductor');
    await playTheApp(page, session, { purchaseOutcome: 'pending' });
    await open(page, membershipUrl());
    await waitForApp(page);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: /^Subscribe for/ }).click();
    await expect(page.getByText(/waiting for approval/)).toBeVisible();
    // The approval arrives later, as an event from the app; the page verifies it then, and
    // nothing still says "waiting".
    await expect(page.getByText('Your membership is active', { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText(/^Your purchase was approved/)).toBeVisible();
    await expect(page.getByText(/waiting for approval/)).toHaveCount(0);
    expect((await readMembership(request, session)).status).toBe('active');
  });

  test('Restore Purchases on a device that bought nothing says there is nothing to restore', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'yuyuan');
    await playTheApp(page, session);
    await open(page, membershipUrl());
    await waitForApp(page);
    await page.getByRole('button', { name: 'Restore purchases' }).click();
    await expect(page.getByText('No subscription to restore was found.')).toBeVisible();
    expect((await readMembership(request, session)).status).toBe('none');
  });

  test('on Android the page says membership is bought on iOS', async ({ page, request }) => {
    const session = await logIn(request, 'karasuno');
    await playTheApp(page, session, { platform: 'android' });
    await open(page, membershipUrl());
    await waitForApp(page);
    await expect(page.getByText(/cannot be bought on this device/)).toBeVisible();
    await expect(page.getByRole('button', { name: /^Subscribe for/ })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});

test.describe('delete the account @once', () => {
  const pageUrl = `${BASE_PATH}/APPPage/logOut?lang=en`;

  async function deletionStatus(request: APIRequestContext, session: DemoSession) {
    const response = await request.get(`${API}/account/deletion`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(response.status()).toBe(200);
    return (await response.json()) as { request: { deletesAt: string } | null };
  }

  test('verifies by SMS code, confirms, shows the exact date of the cool-off, and cancels', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'satoru');
    expect((await deletionStatus(request, session)).request).toBeNull();
    await playTheApp(page, session);
    await open(page, pageUrl);
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'What is deleted' })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Get code' }).click();
    await expect(page.getByText(/^Code sent to/)).toBeVisible();
    const sms = await request.get(`${API}/demo/sms/latest`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(sms.status()).toBe(200);
    const { code } = (await sms.json()) as { code: string };

    // Nothing happens without the explicit confirmation.
    await page.getByLabel('SMS code', { exact: true }).fill(code);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    await expectPageBehindInert(page, dialog);
    expect((await deletionStatus(request, session)).request).toBeNull();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();

    await expect(page.getByRole('heading', { name: 'Deletion requested' })).toBeVisible();
    // The token the page started with was issued before the confirmation: the page goes on with
    // the one the app refreshed, and so does this check.
    const pending = (await deletionStatus(request, await refreshed(request, session))).request;
    expect(pending).not.toBeNull();
    const days = (Date.parse(pending?.deletesAt ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(14.9);
    expect(days).toBeLessThanOrEqual(15);
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
      new Date(pending?.deletesAt ?? ''),
    );
    await expect(
      page.getByText(new RegExp(`deleted on .*${date.split(' ')[0] ?? ''}`)).first(),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Cancel deletion' }).click();
    await expect(page.getByText('The deletion is cancelled.', { exact: false })).toBeVisible();
    expect((await deletionStatus(request, session)).request).toBeNull();
  });

  test('a wrong code is refused at once with the tries left, before any confirmation', async ({
    page,
    request,
    consoleGuard,
  }) => {
    // The browser logs the API's 400 answer to the wrong code.
    consoleGuard.allow(
      /status of 400 \(Bad Request\) \(http:\/\/[^)]+\/api\/v1\/account\/deletion\/code\/check\)/,
    );
    const session = await logIn(request, 'yuyuan');
    await playTheApp(page, session);
    await open(page, pageUrl);
    await waitForApp(page);
    await page.getByRole('button', { name: 'Get code' }).click();
    await expect(page.getByText(/^Code sent to/)).toBeVisible();
    const sms = await request.get(`${API}/demo/sms/latest`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    const { code } = (await sms.json()) as { code: string };
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByLabel('SMS code', { exact: true }).fill(wrong);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete account' }).click();
    // Issue 39: the code is checked first; the last "are you sure" never opens for a wrong one.
    await expect(page.getByText(/The code is wrong\. 4 tries left\./)).toBeVisible();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    expect((await deletionStatus(request, session)).request).toBeNull();
    // The right code then opens it.
    await page.getByLabel('SMS code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Delete your account?' })).toBeVisible();
    expect((await deletionStatus(request, session)).request).toBeNull();
  });

  test('asking for codes too often is refused with the time to wait', async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(
      /status of 429 \(Too Many Requests\) \(http:\/\/[^)]+\/api\/v1\/account\/deletion\/code\)/,
    );
    const session = await logIn(request, 'chigu');
    await playTheApp(page, session);
    await open(page, pageUrl);
    await waitForApp(page);
    await page.getByRole('button', { name: 'Get code' }).click();
    await expect(page.getByText(/^Code sent to/)).toBeVisible();
    // A reload forgets the page's countdown; the server still remembers.
    await page.reload();
    await waitForApp(page);
    await page.getByRole('button', { name: 'Get code' }).click();
    await expect(page.getByText(/Try again in/).first()).toBeVisible();
  });

  test('a user with open matters sees the blocker first, in plain words, and opens the app screen that settles it', async ({
    page,
    request,
  }, testInfo) => {
    const session = await logIn(request, 'karasuno');
    await playTheApp(page, session);
    await page.setViewportSize({ width: 320, height: 640 });
    await open(page, pageUrl);
    await waitForApp(page);
    const heading = page.getByRole('heading', { name: 'Before you can delete your account' });
    // On the first screen at 320 px, not three screens down.
    await expect(heading).toBeInViewport();
    await expect(page.getByText(/^Your exposure post “.+” is still being reviewed$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Get code' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.screenshot({
      path: testInfo.outputPath('deletion-blocker-320.png'),
      fullPage: true,
    });
    await page.getByRole('button', { name: 'Withdraw it in My exposures' }).click();
    await expect(page.getByText(/exposures\/mine/)).toBeVisible();
    await page.getByRole('button', { name: 'Back to the page' }).click();
    await expect(heading).toBeVisible();
  });

  test('logging in again during the cool-off cancels the deletion, and the page says so', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'conductor');
    const headers = { authorization: `Bearer ${session.token}` };
    expect((await request.post(`${API}/account/deletion/code`, { headers })).status()).toBe(201);
    const sms = await request.get(`${API}/demo/sms/latest`, { headers });
    const { code } = (await sms.json()) as { code: string };
    const confirmed = await request.post(`${API}/account/deletion`, {
      headers,
      data: { code, confirm: true },
    });
    expect(confirmed.status()).toBe(201);
    // The app logs in again: a token whose auth_time is after the confirmation withdraws the
    // request. Its times have whole seconds: a log-in in the confirmation's second would not
    // count, so it waits for the next second to begin (the server's clock is this machine's).
    const confirmedSecond = Math.floor(Date.now() / 1000);
    await expect
      .poll(() => Math.floor(Date.now() / 1000), { intervals: [50] })
      .toBeGreaterThan(confirmedSecond);
    const again = await logIn(request, 'conductor');
    expect((await deletionStatus(request, again)).request).toBeNull();
    await playTheApp(page, again);
    await open(page, pageUrl);
    await waitForApp(page);
    await expect(
      page.getByText(
        /^You logged in to Goods Circle again on .+, which cancelled your deletion request/,
      ),
    ).toBeVisible();
    // The code field's placeholder is words, not letter-spaced like the digits.
    const spacing = await page
      .getByLabel('SMS code', { exact: true })
      .evaluate((input) => getComputedStyle(input, '::placeholder').letterSpacing);
    expect(spacing).toBe('normal');
  });
});

/**
 * What happens on these pages reaches the platform, watched as a tester watches it after
 * `npm start`: in the simulator's "Platform" section, the stand-in platform's ledger charges a
 * redemption (once, even when its answer is lost) and its receiver gets the account's deletion.
 * Here, in this serial file, because the stand-in's fault applies to whichever debit comes next
 * and a pending deletion changes what its user may do.
 */
test.describe('the simulator’s Platform section @once', () => {
  /** How long the platform may take: a lost answer is asked again after 1 s, deliveries batched. */
  const PLATFORM_TIMEOUT = 30_000;

  /** Opens the simulator's panel (it covers the page's corner: closed again to use the page). */
  async function openPanel(page: Page) {
    await page.getByRole('button', { name: 'App simulator', exact: true }).click();
    return page.getByRole('complementary', { name: 'App simulator' });
  }

  async function closePanel(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Hide app simulator' }).click();
  }

  async function redeem(page: Page, design: string): Promise<void> {
    await open(page, designUrl(design));
    await waitForApp(page);
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Confirm redemption' })
      .getByRole('button', { name: 'Redeem' })
      .click();
  }

  /** The newest debit's cells: key (the whole key its title), outcome, balance, time. */
  function newestDebit(panel: ReturnType<Page['getByRole']>) {
    return panel
      .getByRole('table', { name: 'Last debits' })
      .getByRole('row')
      .nth(1)
      .getByRole('cell');
  }

  test('shows a redemption charged by the platform, and a lost answer charged once', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'conductor');
    const before = (await readDesign(request, session, DEMO_IDS.designs.sakura)).balance;
    await playTheApp(page, session, { showPlatform: true });

    await redeem(page, DEMO_IDS.designs.sakura);
    await expect(page.getByRole('heading', { name: 'Redeemed' })).toBeVisible({
      timeout: PLATFORM_TIMEOUT,
    });
    let panel = await openPanel(page);
    await expect(newestDebit(panel).nth(1)).toHaveText('Charged 200');
    await expect(newestDebit(panel).nth(2)).toHaveText(String(before - 200));
    await expect(panel.getByText(`列车长的票夹: ${before - 200} points`)).toBeVisible();
    await expectNoAxeViolations(page, '[data-bridge-simulator]');

    // The next debit is charged, but its answer never reaches the site.
    await panel.getByLabel('Next debit').selectOption('lose_answer');
    await expect(panel.getByText('The next debit loses its answer.')).toBeVisible();
    await closePanel(page);

    await redeem(page, DEMO_IDS.designs.shelf);
    // The site heard nothing back: the page says the redemption is being confirmed, and the
    // site asks again with the same key until the page completes by itself.
    await expect(page.getByRole('heading', { name: /^Confirming/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Redeemed' })).toBeVisible({
      timeout: PLATFORM_TIMEOUT,
    });
    panel = await openPanel(page);
    await expect(newestDebit(panel).nth(1)).toHaveText('Charged 150');
    await expect(newestDebit(panel).nth(2)).toHaveText(String(before - 350));
    const key = await newestDebit(panel).first().getAttribute('title');
    expect(key).toBeTruthy();
    await expect(
      panel.getByRole('table', { name: 'Last debits' }).locator(`td[title="${key ?? ''}"]`),
    ).toHaveCount(1);
    // The fault applied to that debit only.
    await expect(panel.getByLabel('Next debit')).toHaveValue('none');
    expect((await readDesign(request, session, DEMO_IDS.designs.shelf)).balance).toBe(before - 350);
  });

  test('shows an account deletion reach the platform’s receiver', async ({ page, request }) => {
    const session = await logIn(request, 'beika');
    await playTheApp(page, session, { showPlatform: true });
    await open(page, `${BASE_PATH}/APPPage/logOut?lang=en`);
    await waitForApp(page);

    await page.getByRole('button', { name: 'Get code' }).click();
    await expect(page.getByText(/^Code sent to/)).toBeVisible();
    const sms = await request.get(`${API}/demo/sms/latest`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(sms.status()).toBe(200);
    const { code } = (await sms.json()) as { code: string };
    await page.getByLabel('SMS code', { exact: true }).fill(code);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete your account?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expect(page.getByRole('heading', { name: 'Deletion requested' })).toBeVisible();

    const panel = await openPanel(page);
    const deliveries = panel.getByRole('table', { name: 'Deliveries received' });
    await expect(
      deliveries
        .getByRole('cell', { name: /account\.deletion_requested \(米花町常住民\)/ })
        .first(),
    ).toBeVisible({ timeout: PLATFORM_TIMEOUT });
    await expectNoAxeViolations(page, '[data-bridge-simulator]');

    // Cancelled, as the account was: the platform hears that too.
    await closePanel(page);
    await page.getByRole('button', { name: 'Cancel deletion' }).click();
    await expect(page.getByText('The deletion is cancelled.', { exact: false })).toBeVisible();
    await openPanel(page);
    await expect(
      deliveries
        .getByRole('cell', { name: /account\.deletion_withdrawn \(米花町常住民\)/ })
        .first(),
    ).toBeVisible({ timeout: PLATFORM_TIMEOUT });
  });
});
