import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { DesignView } from '@guquan/contract/design';
import type { Session } from '@guquan/contract/session';
import {
  DEFAULT_SETTINGS,
  SESSION_KEY,
  SETTINGS_KEY,
} from '../../apps/web/src/features/bridge-simulator/simulator-state.ts';
import type { DemoUserKey } from '../../apps/server/src/demo/seed/demo-ids.ts';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  open,
  test,
  waitForApp,
} from './fixtures.ts';

/**
 * What happens on the site reaches the platform, watched as a tester watches it after
 * `npm start`: in the bridge simulator's "Platform" section, the stand-in platform's ledger
 * charges a redemption (once, even when its answer is lost) and its receiver gets the account's
 * deletion. These tests change the demo data (points spent, a deletion requested then cancelled),
 * so they are @once (the iPhone project) and serial; their users and designs are none that
 * in-app-pages.spec.ts redeems or deletes.
 */
test.describe.configure({ mode: 'serial' });

const API = `${BASE_PATH}/api/v1`;
/** How long the platform may take: a lost answer is asked again after 1 s, deliveries batched. */
const PLATFORM_TIMEOUT = 15_000;

async function logIn(request: APIRequestContext, user: DemoUserKey): Promise<Session> {
  const response = await request.post(`${API}/demo/sessions`, {
    data: { userId: DEMO_IDS.users[user] },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as Session;
}

/** The app opens its pages with this user logged in, the panel's Platform section expanded. */
async function playTheApp(page: Page, session: Session): Promise<void> {
  await page.addInitScript(
    ([sessionKey, settingsKey, values]) => {
      if (sessionStorage.getItem('e2e.seeded')) return;
      sessionStorage.setItem('e2e.seeded', '1');
      sessionStorage.setItem(sessionKey, JSON.stringify(values.session));
      sessionStorage.setItem(settingsKey, JSON.stringify(values.settings));
    },
    [
      SESSION_KEY,
      SETTINGS_KEY,
      { session, settings: { ...DEFAULT_SETTINGS, showPlatform: true } },
    ] as const,
  );
}

async function balanceOf(request: APIRequestContext, session: Session): Promise<number> {
  const response = await request.get(`${API}/designs/${DEMO_IDS.designs.sakura}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as DesignView).viewer.balance;
}

/** Opens the simulator's panel (it covers the page's corner, so it is closed to use the page). */
async function openPanel(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'App simulator', exact: true }).click();
  return page.getByRole('complementary', { name: 'App simulator' });
}

async function closePanel(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Hide app simulator' }).click();
}

async function redeem(page: Page, design: string): Promise<void> {
  await open(page, `${BASE_PATH}/APPPage/cashDesign?designId=${design}&lang=en`);
  await waitForApp(page);
  await page.getByRole('button', { name: 'Redeem', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Confirm redemption' })
    .getByRole('button', { name: 'Redeem' })
    .click();
}

/** The newest debit's cells: key (its title the whole key), outcome, balance, time. */
function newestDebit(panel: Locator): Locator {
  return panel
    .getByRole('table', { name: 'Last debits' })
    .getByRole('row')
    .nth(1)
    .getByRole('cell');
}

test.describe('the simulator’s Platform section @once', () => {
  test('shows a redemption charged by the platform, and a lost answer charged once', async ({
    page,
    request,
  }) => {
    const session = await logIn(request, 'conductor');
    const before = await balanceOf(request, session);
    await playTheApp(page, session);

    await redeem(page, DEMO_IDS.designs.sakura);
    await expect(page.getByRole('heading', { name: 'Redeemed' })).toBeVisible({
      timeout: PLATFORM_TIMEOUT,
    });
    let panel = await openPanel(page);
    await expect(newestDebit(panel).nth(1)).toHaveText('Charged 200');
    await expect(newestDebit(panel).nth(2)).toHaveText(String(before - 200));
    await expect(panel.getByText(`: ${before - 200} points`)).toBeVisible();
    await expectNoAxeViolations(page, '[data-bridge-simulator]');

    // The next debit is charged, but its answer never reaches the site.
    await panel.getByLabel('Next debit').selectOption('lose_answer');
    await expect(panel.getByText('The next debit loses its answer.')).toBeVisible();
    await closePanel(page);

    await redeem(page, DEMO_IDS.designs.shelf);
    // The site heard nothing back: the page says the redemption is being confirmed.
    await expect(page.getByRole('heading', { name: /^Confirming/ })).toBeVisible();
    // The site asks again with the same key, and the page completes by itself.
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
    expect(await balanceOf(request, session)).toBe(before - 350);
  });

  test('shows an account deletion reach the platform’s receiver', async ({ page, request }) => {
    const session = await logIn(request, 'beika');
    await playTheApp(page, session);
    await open(page, `${BASE_PATH}/APPPage/logOut?lang=en`);
    await waitForApp(page);

    await page.getByRole('button', { name: 'Get code' }).click();
    await expect(page.getByText(/^Code sent to/)).toBeVisible();
    const sms = await request.get(`${API}/demo/sms/latest`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(sms.status()).toBe(200);
    const { code } = (await sms.json()) as { code: string };
    await page.getByLabel('SMS code').fill(code);
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
      deliveries.getByRole('cell', { name: /account\.deletion_requested/ }).first(),
    ).toBeVisible({ timeout: PLATFORM_TIMEOUT });
    await expectNoAxeViolations(page, '[data-bridge-simulator]');

    // Cancelled, as the account was: the platform hears that too.
    await closePanel(page);
    await page.getByRole('button', { name: 'Cancel deletion' }).click();
    await expect(page.getByText('The deletion is cancelled.', { exact: false })).toBeVisible();
    await openPanel(page);
    await expect(
      deliveries.getByRole('cell', { name: /account\.deletion_withdrawn/ }).first(),
    ).toBeVisible({ timeout: PLATFORM_TIMEOUT });
  });
});
