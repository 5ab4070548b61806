import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { WECHAT_JS_CONFIG_PATH, weChatJsConfigSchema } from '@guquan/contract/wechat';
import { WECHAT_LAUNCH_TEMPLATE_STYLE } from '@guquan/contract/wechat-page';
import { cspHash } from '../pages/page-csp.ts';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { startWeChatStandIn, type WeChatStandIn } from '../test-support/wechat-stand-in.ts';
import { signJsapi } from './jsapi-signature.ts';

const APP_ID = 'wx1234567890abcdef';
const OPEN_APP_ID = 'wxfedcba0987654321';
const SECRET = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const ORIGIN = 'http://127.0.0.1:8080';
const GOODS_PAGE = `/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}`;
const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003129) NetType/WIFI Language/zh_CN';
const SAFARI_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let wechat: WeChatStandIn;
let app: FastifyInstance;
let plain: FastifyInstance;
const logLines: string[] = [];

const ask = (target: FastifyInstance, body: unknown, ip = '127.0.0.1') =>
  target.inject({
    method: 'POST',
    url: WECHAT_JS_CONFIG_PATH,
    payload: body as object,
    remoteAddress: ip,
  });

beforeAll(async () => {
  wechat = await startWeChatStandIn({ appId: APP_ID, appSecret: SECRET });
  app = await buildTestApp(
    {
      LOG_LEVEL: 'trace',
      WECHAT_APP_ID: APP_ID,
      WECHAT_APP_SECRET: SECRET,
      WECHAT_OPEN_APP_ID: OPEN_APP_ID,
      WECHAT_API_BASE: wechat.base,
    },
    { logStream: { write: (line) => logLines.push(line) } },
  );
  plain = await buildTestApp();
});

afterAll(async () => {
  await Promise.all([app.close(), plain.close(), wechat.stop()]);
});

describe('POST wechat/js-config', () => {
  it("signs one of our share pages with WeChat's ticket, for that exact address", async () => {
    const url = `${ORIGIN}${GOODS_PAGE}&lang=zh-CN&from=singlemessage`;
    const res = await ask(app, { url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const config = weChatJsConfigSchema.parse(res.json());
    expect(config.appId).toBe(APP_ID);
    expect(config.openAppId).toBe(OPEN_APP_ID);
    expect(Math.abs(config.timestamp - Date.now() / 1000)).toBeLessThan(60);
    const ticket = wechat.ticket ?? '';
    expect(config.signature).toBe(signJsapi(ticket, config.nonceStr, config.timestamp, url));
    expect(res.body).not.toContain(ticket);
    expect(res.body).not.toContain(SECRET);
  });

  it.each([
    ['no body', undefined],
    ['no url', {}],
    ['not a URL', { url: 'goodsShare?id=1' }],
    ['another origin', { url: `https://evil.example${GOODS_PAGE}` }],
    ['another port', { url: `http://127.0.0.1:9999${GOODS_PAGE}` }],
    ['a fragment', { url: `${ORIGIN}${GOODS_PAGE}#x` }],
    ['not a share page', { url: `${ORIGIN}/anime_merch_web/website` }],
    ['the API', { url: `${ORIGIN}${WECHAT_JS_CONFIG_PATH}` }],
    ['credentials in the URL', { url: `http://user:pw@127.0.0.1:8080${GOODS_PAGE}` }],
  ])('refuses %s with 400 in the one error shape', async (_what, body) => {
    const res = await ask(app, body, '10.0.0.1');
    expect(res.statusCode).toBe(400);
    expect(apiErrorSchema.safeParse(res.json()).success).toBe(true);
  });

  it('answers 503 when WeChat refuses, and the page is unaffected', async () => {
    const fresh = await startWeChatStandIn({ appId: APP_ID, appSecret: SECRET });
    fresh.refuse('token', 45009, 10);
    const refusing = await buildTestApp({
      WECHAT_APP_ID: APP_ID,
      WECHAT_APP_SECRET: SECRET,
      WECHAT_OPEN_APP_ID: OPEN_APP_ID,
      WECHAT_API_BASE: fresh.base,
    });
    try {
      const res = await ask(refusing, { url: `${ORIGIN}${GOODS_PAGE}` });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: {
          code: 'wechat_unavailable',
          message: 'WeChat cannot be reached now.',
          requestId: expect.any(String) as string,
        },
      });
      const page = await refusing.inject({ url: GOODS_PAGE, headers: { 'user-agent': WECHAT_UA } });
      expect(page.statusCode).toBe(200);
    } finally {
      await refusing.close();
      await fresh.stop();
    }
  });

  it('limits each address to 30 signatures a minute', async () => {
    const url = `${ORIGIN}${GOODS_PAGE}`;
    for (let i = 0; i < 30; i += 1)
      expect((await ask(app, { url }, '10.9.9.9')).statusCode).toBe(200);
    const limited = await ask(app, { url }, '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: { code: 'too_many_requests' } });
    expect((await ask(app, { url }, '10.9.9.8')).statusCode).toBe(200);
  });

  it('does not exist without the WeChat settings', async () => {
    const res = await ask(plain, { url: `${ORIGIN}${GOODS_PAGE}` });
    expect(res.statusCode).toBe(404);
  });

  it('never logs the secret, the token or the ticket', () => {
    const log = logLines.join('');
    expect(log).toContain('wechat/js-config');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(wechat.ticket ?? 'no ticket');
    expect(log).not.toMatch(/access_token/);
  });
});

describe('share pages with the WeChat settings', () => {
  it('inside WeChat: the marker, and a policy that allows exactly the JS-SDK, kept private', async () => {
    const inWeChat = await app.inject({ url: GOODS_PAGE, headers: { 'user-agent': WECHAT_UA } });
    const inSafari = await app.inject({ url: GOODS_PAGE, headers: { 'user-agent': SAFARI_UA } });
    expect(inWeChat.body).toBe(inSafari.body);
    expect(inWeChat.body).toContain('<meta name="guquan-wechat" content="on">');
    const wechatCsp = String(inWeChat.headers['content-security-policy']);
    const safariCsp = String(inSafari.headers['content-security-policy']);
    expect(wechatCsp).toBe(
      safariCsp
        .replace(/(script-src [^;]*)/, '$1 https://res.wx.qq.com')
        .replace(/(style-src [^;]*)/, `$1 ${cspHash(WECHAT_LAUNCH_TEMPLATE_STYLE)}`),
    );
    expect(safariCsp).not.toContain('wx.qq.com');
    expect(inWeChat.headers['cache-control']).toBe('private, no-cache');
    expect(inSafari.headers['cache-control']).toBe(
      (await plain.inject({ url: GOODS_PAGE })).headers['cache-control'],
    );
  });

  it('without them: no marker, and WeChat gets the same policy as everyone', async () => {
    const inWeChat = await plain.inject({ url: GOODS_PAGE, headers: { 'user-agent': WECHAT_UA } });
    const inSafari = await plain.inject({ url: GOODS_PAGE, headers: { 'user-agent': SAFARI_UA } });
    expect(inWeChat.body).not.toContain('guquan-wechat');
    expect(inWeChat.headers['content-security-policy']).toBe(
      inSafari.headers['content-security-policy'],
    );
    expect(inWeChat.headers['cache-control']).toBe(inSafari.headers['cache-control']);
  });
});
