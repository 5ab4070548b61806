import { REAL_USER_AGENTS } from '../support/real-user-agents.ts';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import { BASE_PATH, DEMO_IDS, expect, open, test, waitForApp, withLang } from './fixtures.ts';

/**
 * "Open in app" on a share page inside the apps people share from, with their real User-Agents:
 * each gets what it allows (lib/client/app-opening.ts): the custom scheme then the store, the
 * store at once, or the open-in-browser guide.
 */
const GOODS = withLang(`${BASE_PATH}/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}`, 'zh-CN');
const CASES = [
  ['QQ on iPhone', 'scheme'],
  ['Weibo on iPhone', 'store'],
  ['Qzone on Android', 'guide'],
  ['Douyin on Android', 'guide'],
  ['DingTalk on iPhone', 'guide'],
] as const;

for (const [name, expected] of CASES) {
  test(`${name}: ${expected}`, async ({ openContext }) => {
    const sample = REAL_USER_AGENTS.find((candidate) => candidate.name === name);
    if (!sample) throw new Error(`no User-Agent for ${name}`);
    const context = await openContext({ userAgent: sample.userAgent });
    const page = await context.newPage();
    const stores: string[] = [];
    await page.route(/^https:\/\/(apps\.apple\.com|www\.guquan\.example)\//, async (route) => {
      stores.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>store</title>' });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Page.enable');
    const navigations: string[] = [];
    cdp.on('Page.frameRequestedNavigation', (event: { url: string }) => {
      navigations.push(event.url);
    });
    await open(page, GOODS);
    await waitForApp(page);
    await page.getByRole('link', { name: shareTexts('zh-CN').openInApp.goods }).click();
    const guide = page.getByRole('dialog', { name: '请在浏览器中打开' });
    if (expected === 'guide') {
      await expect(guide).toBeVisible();
      expect(navigations).toEqual([]);
      return;
    }
    const store = sample.platform === 'ios' ? /^https:\/\/apps\.apple\.com\// : /guquan\.example/;
    await expect.poll(() => stores.length).toBe(1);
    expect(stores[0]).toMatch(store);
    await expect(guide).toHaveCount(0);
    const scheme = `guquan://goods/${DEMO_IDS.goods.gallery}?image=0`;
    if (expected === 'scheme') expect(navigations[0]).toBe(scheme);
    else expect(navigations).not.toContain(scheme);
  });
}
