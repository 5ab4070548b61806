import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWeChatStandIn, type WeChatStandIn } from '../test-support/wechat-stand-in.ts';
import { WECHAT_ANSWER_LIMIT_BYTES, WeChatApiError, weChatApi } from './wechat-api.ts';

const APP_ID = 'wx1234567890abcdef';
const SECRET = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const HUGE = 60 * 1024 * 1024;

let wechat: WeChatStandIn;
beforeEach(async () => {
  wechat = await startWeChatStandIn({ appId: APP_ID, appSecret: SECRET });
});
afterEach(async () => {
  await wechat.stop();
});

const api = () =>
  weChatApi({
    appId: APP_ID,
    appSecret: SECRET,
    openAppId: 'wxfedcba0987654321',
    apiBase: wechat.base,
  });

describe("WeChat's answers are read up to a limit", () => {
  it('reads an answer padded to just under the limit', async () => {
    wechat.oversize(WECHAT_ANSWER_LIMIT_BYTES - 1, 'chunked');
    expect((await api().accessToken()).expiresIn).toBe(7200);
  });

  for (const framing of ['content-length', 'chunked'] as const) {
    it(`refuses a 60 MB answer (${framing}) without reading it`, async () => {
      wechat.oversize(HUGE, framing);
      const error = await api()
        .accessToken()
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      expect(error).toBeInstanceOf(WeChatApiError);
      expect(String(error)).toContain('too large');
      // It hung up after at most the limit and what the sockets' buffers held: never 60 MB.
      await expect.poll(() => wechat.oversized.sent).toBeGreaterThan(0);
      expect(wechat.oversized.finished).toBe(false);
      expect(wechat.oversized.sent).toBeLessThan(16 * 1024 * 1024);
    });
  }
});
