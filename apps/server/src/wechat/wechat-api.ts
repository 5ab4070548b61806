import { z } from 'zod';
import type { WeChatConfig } from '../config/wechat-config.ts';
import { readBodyUpTo } from '../http/bounded-body.ts';

/**
 * WeChat's server API, the two calls the JS-SDK needs: the stable access_token (POST, the secret
 * in the body, never in a URL; the same token for every caller until it nears its end, which suits
 * several servers) and the jsapi_ticket. Errors keep WeChat's errcode; no message ever carries the
 * secret, the token or the ticket.
 */
export interface Credential {
  value: string;
  /** Seconds it is valid for, from now. */
  expiresIn: number;
}

export interface WeChatApi {
  accessToken(): Promise<Credential>;
  jsapiTicket(accessToken: string): Promise<Credential>;
}

/** errcodes the code acts on: the token is not (or no longer) valid; a call limit was reached. */
export const WECHAT_ERRCODES = {
  invalidToken: 40001,
  tokenExpired: 42001,
  rateLimited: 45009,
} as const;

export class WeChatApiError extends Error {
  override name = 'WeChatApiError';
  constructor(
    message: string,
    /** WeChat's errcode, or undefined when WeChat could not be reached or answered nonsense. */
    readonly errcode?: number,
  ) {
    super(message);
  }

  /** The token WeChat was given is not valid (any more): fetch a new one and try again. */
  get tokenRejected(): boolean {
    return (
      this.errcode === WECHAT_ERRCODES.invalidToken || this.errcode === WECHAT_ERRCODES.tokenExpired
    );
  }
}

const REQUEST_TIMEOUT_MS = 5000;

/**
 * WeChat's answers to these two calls are a few hundred bytes. Anything past this is not WeChat
 * (a proxy's error page, a hijacked DNS answer, a fault): it is refused as it arrives, never
 * held in memory whole (a 60 MB answer used to cost the server 210 MB).
 */
export const WECHAT_ANSWER_LIMIT_BYTES = 64 * 1024;

/** The body as text, read up to the limit; past it, the connection is dropped. */
async function readLimited(response: Response, what: string): Promise<string> {
  const bytes = await readBodyUpTo(response, WECHAT_ANSWER_LIMIT_BYTES);
  if (!bytes) {
    throw new WeChatApiError(
      `WeChat's answer for the ${what} is too large (over ${WECHAT_ANSWER_LIMIT_BYTES} bytes)`,
    );
  }
  return bytes.toString('utf8');
}

const errorSchema = z.object({ errcode: z.number().int(), errmsg: z.string().optional() });
const tokenSchema = z.object({
  access_token: z.string().min(1).max(2048),
  expires_in: z.number().int().positive(),
});
const ticketSchema = z.object({
  errcode: z.literal(0).optional(),
  ticket: z.string().min(1).max(2048),
  expires_in: z.number().int().positive(),
});

async function call(url: string, init: RequestInit, what: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch {
    throw new WeChatApiError(`WeChat could not be reached for the ${what}`);
  }
  if (!response.ok)
    throw new WeChatApiError(`WeChat answered HTTP ${response.status} for the ${what}`);
  let text: string;
  try {
    text = await readLimited(response, what);
  } catch (error) {
    if (error instanceof WeChatApiError) throw error;
    throw new WeChatApiError(`WeChat's answer for the ${what} broke off`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new WeChatApiError(`WeChat's answer for the ${what} is not JSON`);
  }
  const error = errorSchema.safeParse(body);
  if (error.success && error.data.errcode !== 0) {
    // errmsg is WeChat's own text (e.g. "invalid credential"); it names no credential.
    const detail = (error.data.errmsg ?? '').replace(/[^\w .:,-]/g, '').slice(0, 120);
    throw new WeChatApiError(
      `WeChat refused the ${what}: errcode ${error.data.errcode} ${detail}`.trim(),
      error.data.errcode,
    );
  }
  return body;
}

export function weChatApi(config: WeChatConfig): WeChatApi {
  return {
    async accessToken() {
      const body = await call(
        `${config.apiBase}/cgi-bin/stable_token`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'client_credential',
            appid: config.appId,
            secret: config.appSecret,
          }),
        },
        'access token',
      );
      const parsed = tokenSchema.safeParse(body);
      if (!parsed.success) throw new WeChatApiError("WeChat's access token answer is malformed");
      return { value: parsed.data.access_token, expiresIn: parsed.data.expires_in };
    },
    async jsapiTicket(accessToken) {
      // WeChat's protocol puts the token in this URL; it goes to WeChat only and is never logged.
      const query = new URLSearchParams({ access_token: accessToken, type: 'jsapi' });
      const body = await call(
        `${config.apiBase}/cgi-bin/ticket/getticket?${query.toString()}`,
        { method: 'GET' },
        'jsapi ticket',
      );
      const parsed = ticketSchema.safeParse(body);
      if (!parsed.success) throw new WeChatApiError("WeChat's jsapi ticket answer is malformed");
      return { value: parsed.data.ticket, expiresIn: parsed.data.expires_in };
    },
  };
}
