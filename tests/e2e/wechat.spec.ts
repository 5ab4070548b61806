import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import {
  WECHAT_JS_CONFIG_PATH,
  weChatJsConfigSchema,
  type WeChatJsConfig,
} from '@guquan/contract/wechat';
import { signJsapi } from '../../apps/server/src/wechat/jsapi-signature.ts';
import {
  startWeChatStandIn,
  type WeChatStandIn,
} from '../../apps/server/src/test-support/wechat-stand-in.ts';
import { shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import { startBuiltServer } from '../support/built-server.ts';
import { BASE_PATH, DEMO_IDS, expect, open, test, waitForApp, withLang } from './fixtures.ts';

/**
 * WeChat's JS-SDK on a share page, in Chromium with a WeChat User-Agent: without the settings
 * (today's guide, nothing loaded), and on a server of its own with the settings, talking to a
 * stand-in for WeChat's API on loopback. WeChat's script (res.wx.qq.com, unreachable here) is
 * replaced by a double that records what the page asks of `wx`.
 */
const APP_ID = 'wx1234567890abcdef';
const OPEN_APP_ID = 'wxfedcba0987654321';
const SECRET = 'e2eSecret0123456789abcdefABCDEF';
const GOODS_PATH = withLang(
  `${BASE_PATH}/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&from=singlemessage`,
  'zh-CN',
);
const OPEN_IN_APP = shareTexts('zh-CN').openInApp.goods;

/** What jweixin-1.6.0.js is replaced with: `wx` as the page uses it, every call recorded. */
const WX_DOUBLE = `(() => {
  const calls = [];
  const ready = [];
  let configured = false;
  window.__wxCalls = calls;
  window.wx = {
    config(options) {
      calls.push(['config', options]);
      setTimeout(() => { configured = true; ready.splice(0).forEach((callback) => callback()); }, 10);
    },
    ready(callback) { if (configured) callback(); else ready.push(callback); },
    error() {},
    updateAppMessageShareData(options) { calls.push(['updateAppMessageShareData', options]); },
    updateTimelineShareData(options) { calls.push(['updateTimelineShareData', options]); },
  };
})();`;

type WxCall = [string, Record<string, unknown>];

async function weChatPage(
  openContext: (options: { userAgent: string }) => Promise<BrowserContext>,
  projectUserAgent: string,
): Promise<{ page: Page; scriptLoads: () => number }> {
  const context = await openContext({ userAgent: `${projectUserAgent} MicroMessenger/8.0.47` });
  let loads = 0;
  await context.route('https://res.wx.qq.com/**', async (route) => {
    loads += 1;
    await route.fulfill({ contentType: 'text/javascript', body: WX_DOUBLE });
  });
  return { page: await context.newPage(), scriptLoads: () => loads };
}

const wxCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __wxCalls?: WxCall[] }).__wxCalls ?? []);

test('without the WeChat settings: today’s guide, no JS-SDK, the usual policy', async ({
  openContext,
}, testInfo) => {
  const { page, scriptLoads } = await weChatPage(openContext, testInfo.project.use.userAgent ?? '');
  const signatures: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(WECHAT_JS_CONFIG_PATH)) signatures.push(request.url());
  });
  const response = await open(page, GOODS_PATH);
  expect(response.headers()['content-security-policy']).not.toContain('wx.qq.com');
  await waitForApp(page);
  await page.getByRole('link', { name: OPEN_IN_APP }).click();
  await expect(page.getByRole('dialog', { name: '请在浏览器中打开' })).toBeVisible();
  await expect(page.locator('wx-open-launch-app')).toHaveCount(0);
  expect(signatures).toEqual([]);
  expect(scriptLoads()).toBe(0);
});

test.describe('with the WeChat settings', () => {
  test.describe.configure({ mode: 'serial' });

  let wechat: WeChatStandIn;
  let server: ChildProcess;
  let origin: string;
  let dataDir: string;

  test.beforeAll(async () => {
    const testInfo = test.info();
    test.setTimeout(180_000);
    // Tokens and tickets valid 2 s: each signature fetches afresh, and expired ones are gone soon.
    wechat = await startWeChatStandIn({
      appId: APP_ID,
      appSecret: SECRET,
      tokenSeconds: 2,
      ticketSeconds: 2,
    });
    // A port of its own next to the suite's, one per project (they may run at once); not the
    // suite server's PORT + 1, where its link domain listens.
    const port =
      Number(process.env.E2E_PORT ?? 18080) + (testInfo.project.name === 'android' ? 12 : 11);
    origin = `http://127.0.0.1:${port}`;
    dataDir = join(tmpdir(), `guquan-e2e-wechat-${port}`);
    await rm(dataDir, { recursive: true, force: true });
    server = await startBuiltServer({
      port,
      dataDir,
      env: {
        WECHAT_APP_ID: APP_ID,
        WECHAT_APP_SECRET: SECRET,
        WECHAT_OPEN_APP_ID: OPEN_APP_ID,
        WECHAT_API_BASE: wechat.base,
      },
      output: 'ignore',
    });
  });

  test.afterAll(async () => {
    if (server.pid !== undefined) process.kill(server.pid);
    await wechat.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('the share card and the open tag, signed for the exact page', async ({
    openContext,
  }, testInfo) => {
    const { page } = await weChatPage(openContext, testInfo.project.use.userAgent ?? '');
    const signed = page.waitForResponse((res) => res.url().endsWith(WECHAT_JS_CONFIG_PATH));
    const response = await open(page, `${origin}${GOODS_PATH}`);
    const csp = response.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src [^;]*https:\/\/res\.wx\.qq\.com/);
    const answer = await signed;
    const asked = answer.request().postDataJSON() as { url: string };
    expect(asked.url).toBe(page.url().split('#')[0]);
    const config: WeChatJsConfig = weChatJsConfigSchema.parse(await answer.json());
    const ticket = wechat.ticket ?? '';
    expect(config.signature).toBe(signJsapi(ticket, config.nonceStr, config.timestamp, asked.url));

    await expect.poll(async () => (await wxCalls(page)).length).toBeGreaterThanOrEqual(3);
    const calls = await wxCalls(page);
    expect(calls[0]).toEqual([
      'config',
      {
        debug: false,
        appId: APP_ID,
        timestamp: config.timestamp,
        nonceStr: config.nonceStr,
        signature: config.signature,
        jsApiList: ['updateAppMessageShareData', 'updateTimelineShareData'],
        openTagList: ['wx-open-launch-app'],
      },
    ]);
    const head = (selector: string) =>
      page.locator(`head meta[${selector}]`).getAttribute('content');
    const card = calls.find(([name]) => name === 'updateAppMessageShareData')?.[1];
    // What the link preview says (the item's own name and the app's), and a square JPEG of it.
    const title = await head('property="og:title"');
    expect(title).toBe('五条悟 涩谷事变 闪光吧唧 58mm - 谷圈');
    expect(card).toEqual({
      title,
      desc: await head('property="og:description"'),
      link: `${origin}${BASE_PATH}/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&lang=zh-CN`,
      imgUrl: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+\/anime_merch_web\/pictures\/goods\/[\w-]{16}\/square\.[0-9a-z]{22}\.jpg$/,
      ),
    });
    expect(calls.find(([name]) => name === 'updateTimelineShareData')?.[1]).toEqual({
      title,
      link: card?.link,
      imgUrl: card?.imgUrl,
    });

    // The open tag over both buttons, on the same goods and image.
    const tags = page.locator('wx-open-launch-app');
    await expect(tags).toHaveCount(2);
    for (const tag of await tags.all()) {
      await expect(tag).toHaveAttribute('appid', OPEN_APP_ID);
      await expect(tag).toHaveAttribute(
        'extinfo',
        `guquan://goods/${DEMO_IDS.goods.gallery}?image=0`,
      );
    }
    // WeChat could not open the app: the guide.
    await tags.last().dispatchEvent('error');
    await expect(page.getByRole('dialog', { name: '请在浏览器中打开' })).toBeVisible();
  });

  test('WeChat’s API down: the page works on with the guide', async ({
    openContext,
    consoleGuard,
  }, testInfo) => {
    // What the first test fetched has expired by now (2 s); WeChat refuses everything.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    wechat.refuse('token', 45009, 100);
    consoleGuard.allow(/status of 503/);
    const { page } = await weChatPage(openContext, testInfo.project.use.userAgent ?? '');
    const signed = page.waitForResponse((res) => res.url().endsWith(WECHAT_JS_CONFIG_PATH));
    await open(page, `${origin}${GOODS_PATH}`);
    expect((await signed).status()).toBe(503);
    await waitForApp(page);
    await page.getByRole('link', { name: OPEN_IN_APP }).click();
    await expect(page.getByRole('dialog', { name: '请在浏览器中打开' })).toBeVisible();
    await expect(page.locator('wx-open-launch-app')).toHaveCount(0);
    expect((await wxCalls(page)).filter(([name]) => name === 'config')).toEqual([]);
  });
});
