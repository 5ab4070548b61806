import { createHash, randomBytes } from 'node:crypto';

/** What wx.config needs besides the app id: signed for exactly one page address. */
export interface JsapiSignature {
  timestamp: number;
  nonceStr: string;
  signature: string;
}

/**
 * WeChat's JS-SDK signature: SHA-1 over `jsapi_ticket=…&noncestr=…&timestamp=…&url=…` (the keys
 * in that ASCII order, the values raw, the URL without its `#…`).
 */
export function signJsapi(
  ticket: string,
  nonceStr: string,
  timestamp: number,
  url: string,
): string {
  const hashless = url.split('#', 1)[0] ?? '';
  const text = `jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${hashless}`;
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

/** A fresh nonce (16 letters and digits, as WeChat's examples) and the signature for `url`. */
export function jsapiSignature(ticket: string, url: string, now: Date): JsapiSignature {
  const nonceStr = randomBytes(12).toString('base64url').replace(/[-_]/g, '0').slice(0, 16);
  const timestamp = Math.floor(now.getTime() / 1000);
  return { timestamp, nonceStr, signature: signJsapi(ticket, nonceStr, timestamp, url) };
}
