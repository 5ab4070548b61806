import { describe, expect, it } from 'vitest';
import { jsapiSignature, signJsapi } from './jsapi-signature.ts';

const TICKET =
  'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg';

describe('the JS-SDK signature', () => {
  it("matches WeChat's own example", () => {
    expect(
      signJsapi(TICKET, 'Wm3WZYTPz0wzccnW', 1414587457, 'http://mp.weixin.qq.com?params=value'),
    ).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed');
  });

  it('signs the address without its #fragment', () => {
    expect(
      signJsapi(TICKET, 'Wm3WZYTPz0wzccnW', 1414587457, 'http://mp.weixin.qq.com?params=value#x'),
    ).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed');
  });

  it('takes a fresh 16-character nonce and the time in seconds each time', () => {
    const now = new Date('2026-11-23T10:00:00.900Z');
    const first = jsapiSignature(TICKET, 'https://example.com/a?id=1', now);
    const second = jsapiSignature(TICKET, 'https://example.com/a?id=1', now);
    expect(first.timestamp).toBe(Math.floor(now.getTime() / 1000));
    expect(first.nonceStr).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(first.nonceStr).not.toBe(second.nonceStr);
    expect(first.signature).toBe(
      signJsapi(TICKET, first.nonceStr, first.timestamp, 'https://example.com/a?id=1'),
    );
  });
});
