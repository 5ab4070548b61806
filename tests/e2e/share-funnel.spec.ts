import { EVENTS_PATH } from '@guquan/contract/funnel-events';
import { missingAppTexts } from '../../apps/web/src/features/share/missing-app-sheet/missing-app-texts.ts';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import { REAL_USER_AGENTS } from '../support/real-user-agents.ts';
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
import { funnelDay, ownServer } from './own-server.ts';

/**
 * The share funnel end to end: visitors view a share page and tap "open in app" (inside WeChat:
 * the guide, then "copy link"; in Safari: the store after the app did not open), the page sends
 * its beacons, and the operators find exactly those counts in /api/funnel and on their page. On a
 * server of its own, so that no other test's visits count.
 */
const ITEM = DEMO_IDS.goods.noPrice;
const PAGE = withLang(`${BASE_PATH}/AppShare/goodsShare?id=${ITEM}`, 'zh-CN');
const TEXT = shareTexts('zh-CN');
const OPEN_IN_APP = TEXT.openInApp.goods;
const SHEET = missingAppTexts('zh-CN');
const userAgentOf = (name: string) =>
  REAL_USER_AGENTS.find((sample) => sample.name === name)?.userAgent ?? '';

// Its own server and operators' listener: E2E_PORT + 61 and + 71.
const own = ownServer({ name: 'funnel', port: 61, timeoutMs: 150_000 });

test('views and taps on share pages are on the operators’ page @once', async ({
  openContext,
  consoleGuard,
}, testInfo) => {
  test.setTimeout(90_000);
  const before = (await own.funnel({ kind: 'goods', id: ITEM })).totals;

  // Inside WeChat: a view, a tap that shows the guide, the link copied.
  const wechat = await openContext({
    userAgent: userAgentOf('WeChat on iPhone'),
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const inWeChat = await wechat.newPage();
  const beacons: { contentType: string | null; body: string }[] = [];
  inWeChat.on('request', (request) => {
    if (request.url().endsWith(EVENTS_PATH))
      beacons.push({
        contentType: request.headers()['content-type'] ?? null,
        body: request.postData() ?? '',
      });
  });
  await open(inWeChat, `${own.origin}${PAGE}`);
  await waitForApp(inWeChat);
  await inWeChat.getByRole('link', { name: OPEN_IN_APP }).click();
  const guide = inWeChat.getByRole('dialog');
  await expect(guide).toBeVisible();
  await guide.getByRole('button', { name: /复制/ }).click();
  await expect(guide.getByRole('status')).not.toBeEmpty();
  // Events go together half a second after the last (and whatever waits, when the page goes).
  await expect.poll(() => beacons.length).toBeGreaterThanOrEqual(1);
  // text/plain: a simple request, no CORS preflight.
  expect(beacons.every((beacon) => beacon.contentType?.startsWith('text/plain'))).toBe(true);
  await inWeChat.close({ runBeforeUnload: true });

  // In Safari, the app not installed: a view, a tap on the Universal Link, which the link domain
  // (this server, as http://localhost:<port>) sends back to the page that offers the app (a
  // fallback, no second view), and "get the app": the store, a share code minted and copied.
  const safari = await openContext({
    userAgent: userAgentOf('Safari on iPhone'),
    // The link domain sends the visitor to the page in their browser's language.
    locale: 'zh-CN',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const inSafari = await safari.newPage();
  const cdp = await safari.newCDPSession(inSafari);
  await cdp.send('Page.enable');
  const navigations: string[] = [];
  cdp.on('Page.frameRequestedNavigation', (event: { url: string }) => {
    navigations.push(event.url);
  });
  await open(inSafari, `${own.origin}${PAGE}`);
  await waitForApp(inSafari);
  await inSafari.getByRole('link', { name: OPEN_IN_APP }).click();
  await inSafari.waitForURL(/[?&]app=missing/);
  await waitForApp(inSafari);
  // Back without the app: the missing-app sheet's one tap to the store.
  await inSafari
    .getByRole('dialog', { name: SHEET.title })
    .getByRole('link', { name: SHEET.getIos })
    .click();
  await expect
    .poll(() => navigations.find((url) => url.startsWith('https://apps.apple.com/')), {
      timeout: 30_000,
    })
    .toBeDefined();
  consoleGuard.allow(/ERR_NAME_NOT_RESOLVED|apps\.apple\.com/);

  const expected = {
    ...before,
    // One view per item per tab: the return from the link domain is the same visit.
    viewed: before.viewed + 2,
    open_tapped: before.open_tapped + 2,
    guide_shown: before.guide_shown + 1,
    link_copied: before.link_copied + 1,
    store_fallback: before.store_fallback + 1,
    link_fallback: before.link_fallback + 1,
    handoff_minted: before.handoff_minted + 1,
  };
  await expect
    .poll(async () => (await own.funnel({ kind: 'goods', id: ITEM })).totals, { timeout: 30_000 })
    .toEqual(expected);

  // The operators' page shows today's numbers (its tables hold the numbers behind each chart).
  const all = (await own.funnel()).totals;
  const operators = await (await openContext({})).newPage();
  await operators.goto(`${own.ops}/funnel?lang=en`);
  const perDay = operators.getByRole('table', { name: 'Per day' });
  const todayRow = perDay.getByRole('row', { name: new RegExp(`^${funnelDay()}`) });
  await expect(todayRow.getByRole('cell').nth(0)).toHaveText(all.viewed.toLocaleString('en-US'));
  await expect(todayRow.getByRole('cell').nth(1)).toHaveText(
    all.open_tapped.toLocaleString('en-US'),
  );
  await expectNoAxeViolations(operators);
  await operators.screenshot({
    path: testInfo.outputPath('operators-page.png'),
    fullPage: true,
  });
});
