/**
 * A new user's first minutes with the demo (issue 31, section 8), at 390 px: choosing a demo user
 * in the simulator logs the in-app page in, the simulator shows the demo SMS code, and the share
 * pages' simulator plays the first launch after an install, naming the image one way.
 */
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  open,
  test,
  waitForApp,
  withLang,
} from './fixtures.ts';
import { API, logIn } from './demo-app.ts';
import { ownServer } from './own-server.ts';

const SHOTS = '/tmp/shots-i31-newuser';

test.describe('a demo user picked in the simulator', () => {
  // Its own server: the code it sends beika would make in-app-pages.spec.ts's code for beika
  // wait a minute (429) on the shared one, and every other demo user is that spec's, or blocked.
  const own = ownServer({ name: 'new-user', port: 65 });

  test('logs the deletion page in, and the panel shows the SMS code @once', async ({
    page,
    playwright,
  }, testInfo) => {
    test.setTimeout(90_000);
    const request = await playwright.request.newContext({ baseURL: own.origin });
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, `${own.origin}${withLang(`${BASE_PATH}/APPPage/logOut`, 'en')}`);
    await waitForApp(page);
    const toggle = page.getByRole('button', { name: 'App simulator' });
    await toggle.click();
    const panel = page.getByRole('complementary', { name: 'App simulator' });
    const sms = panel.getByRole('region', { name: 'Demo SMS code' });
    await expect(sms).toContainText('Pick a demo user');

    // The pick alone: the page asks for its session again and loads the user's deletion overview.
    const user = DEMO_IDS.users.beika;
    const overview = page.waitForRequest(
      (req) => req.url().includes('/account/deletion') && Boolean(req.headers().authorization),
    );
    await panel.getByLabel('Demo user', { exact: true }).selectOption(user);
    await overview;

    // A code "sent" to the user's phone.
    const { token } = await logIn(request, 'beika');
    const headers = { authorization: `Bearer ${token}` };
    expect((await request.post(`${API}/account/deletion/code`, { headers })).status()).toBe(201);
    const latest = (await (await request.get(`${API}/demo/sms/latest`, { headers })).json()) as {
      code: string;
    };
    await sms.getByRole('button', { name: 'Refresh SMS code' }).click();
    await expect(sms.locator('[data-sms-code]')).toHaveText(latest.code);
    await expect(sms).toContainText(/Sent to \d{3}\*{4}\d{4} at/);
    await page.screenshot({ path: `${SHOTS}/deletion-sms-${testInfo.project.name}.png` });
    await expectNoAxeViolations(page, '[data-bridge-simulator]');
    await request.dispose();
  });
});

test('the share pages’ simulator plays the first launch, naming the image as the page does', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const site = new URL(baseURL ?? '');
  const linkOrigin = `http://${site.hostname}:${Number(site.port) + 1}`;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  const goods = DEMO_IDS.goods.gallery;
  await open(page, withLang(`${BASE_PATH}/AppShare/goodsShare?id=${goods}`, 'zh-CN'));
  await waitForApp(page);
  const toggle = page.getByRole('button', { name: 'App simulator' });
  await expect(toggle).toBeVisible();
  // Bottom left: clear of the top bar and its "打开".
  const box = await toggle.boundingBox();
  expect(box?.y ?? 0).toBeGreaterThan(844 / 2);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  await page.screenshot({ path: `${SHOTS}/share-closed-${testInfo.project.name}.png` });

  // The share text a visitor copied (here its link alone, to the third image: ?image=2).
  await page.evaluate(
    (text) => navigator.clipboard.writeText(text),
    `【谷圈】x ${linkOrigin}/goods/${goods}?image=2`,
  );
  await toggle.click();
  const panel = page.getByRole('complementary', { name: 'App simulator' });
  await expect(panel.getByLabel('Demo user', { exact: true })).toHaveCount(0);
  await panel.getByRole('button', { name: 'First launch after install' }).click();
  const notice = panel.getByRole('status');
  await expect(notice).toContainText(
    new RegExp(`read the link \\(no claim needed\\) and opens goods ${goods} “.+”, at image 3\\.`),
  );
  await expect(notice).not.toContainText('image=');
  await page.screenshot({ path: `${SHOTS}/share-first-launch-${testInfo.project.name}.png` });
  await expectNoAxeViolations(page);
});
