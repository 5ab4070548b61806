import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from '../timing/sleep.ts';

/**
 * A stand-in for WeChat's server API on loopback, speaking its protocol: `POST
 * /cgi-bin/stable_token` (JSON body with grant_type, appid, secret → access_token, expires_in) and
 * `GET /cgi-bin/ticket/getticket?access_token&type=jsapi` (→ errcode 0, ticket, expires_in), with
 * `errcode`/`errmsg` bodies for errors. Tests can expire what it issued, make it refuse, slow it
 * down or stop it; it counts the calls. It logs nothing (the token travels in a URL).
 */
export interface WeChatStandInOptions {
  appId: string;
  appSecret: string;
  /** expires_in of what it issues, in seconds (WeChat: 7200). */
  tokenSeconds?: number;
  ticketSeconds?: number;
}

export interface WeChatStandIn {
  /** Its base URL, for WECHAT_API_BASE. */
  readonly base: string;
  readonly calls: { token: number; ticket: number };
  /** The ticket it issued last (a test signs with it to check the server's signature). */
  readonly ticket: string | undefined;
  /** Every token and ticket issued so far is no longer valid (getticket answers 40001). */
  expireAll(): void;
  /** The next `times` calls of that kind answer this errcode. */
  refuse(kind: 'token' | 'ticket', errcode: number, times?: number): void;
  /** Every answer waits this long first. */
  delay(ms: number): void;
  /**
   * Every answer is valid JSON padded to `bytes` (a field WeChat never sends), streamed in
   * 64 kB chunks as the reader takes them, with a Content-Length or chunked.
   */
  oversize(bytes: number, framing: 'content-length' | 'chunked'): void;
  /** Bytes of padded answers the reader took before it hung up, and whether one was read whole. */
  readonly oversized: { sent: number; finished: boolean };
  stop(): Promise<void>;
}

const ERRMSG: Readonly<Record<number, string>> = {
  40001: 'invalid credential, access_token is invalid or not latest',
  40013: 'invalid appid',
  40125: 'invalid appsecret',
  45009: 'reach max api daily quota limit',
  [-1]: 'system error',
};

function send(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

const PAD_CHUNK = Buffer.alloc(64 * 1024, 'x');

/** `body` as JSON with a padding field that makes it `bytes` long, written as the reader reads. */
async function sendPadded(
  response: ServerResponse,
  body: object,
  bytes: number,
  framing: 'content-length' | 'chunked',
  counted: { sent: number; finished: boolean },
): Promise<void> {
  const head = Buffer.from(`${JSON.stringify(body).slice(0, -1)},"padding":"`);
  const tail = Buffer.from('"}');
  const padding = Math.max(0, bytes - head.length - tail.length);
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    ...(framing === 'content-length' ? { 'content-length': String(bytes) } : {}),
  });
  const write = async (chunk: Buffer) => {
    if (response.destroyed) return false;
    counted.sent += chunk.length;
    if (!response.write(chunk)) {
      await new Promise<void>((resolve) => {
        response.once('drain', resolve);
        response.once('close', resolve);
      });
    }
    return !response.destroyed;
  };
  if (!(await write(head))) return;
  for (let left = padding; left > 0; left -= PAD_CHUNK.length) {
    if (!(await write(left >= PAD_CHUNK.length ? PAD_CHUNK : PAD_CHUNK.subarray(0, left)))) return;
  }
  if (!(await write(tail))) return;
  response.end();
  counted.finished = true;
}

const refusal = (errcode: number) => ({ errcode, errmsg: ERRMSG[errcode] ?? 'error' });

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk as Uint8Array));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

export async function startWeChatStandIn({
  appId,
  appSecret,
  tokenSeconds = 7200,
  ticketSeconds = 7200,
}: WeChatStandInOptions): Promise<WeChatStandIn> {
  const calls = { token: 0, ticket: 0 };
  const refusals: Record<'token' | 'ticket', { errcode: number; times: number } | undefined> = {
    token: undefined,
    ticket: undefined,
  };
  let validToken: string | undefined;
  let ticket: string | undefined;
  let delayMs = 0;
  let padding: { bytes: number; framing: 'content-length' | 'chunked' } | undefined;
  const oversized = { sent: 0, finished: false };

  function refused(kind: 'token' | 'ticket'): number | undefined {
    const planned = refusals[kind];
    if (!planned) return undefined;
    planned.times -= 1;
    if (planned.times <= 0) refusals[kind] = undefined;
    return planned.errcode;
  }

  /** WeChat's answer to one request; undefined for a path WeChat does not have. */
  async function answer(request: IncomingMessage): Promise<object | undefined> {
    if (delayMs > 0) await sleep(delayMs);
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method === 'POST' && url.pathname === '/cgi-bin/stable_token') {
      calls.token += 1;
      const body = await readJson(request);
      const fields = typeof body === 'object' && body !== null ? body : {};
      const errcode = refused('token');
      if (errcode !== undefined) return refusal(errcode);
      if (!('grant_type' in fields) || fields.grant_type !== 'client_credential')
        return refusal(40002);
      if (!('appid' in fields) || fields.appid !== appId) return refusal(40013);
      if (!('secret' in fields) || fields.secret !== appSecret) return refusal(40125);
      // Stable tokens: the same one while it is valid.
      validToken ??= randomBytes(48).toString('base64url');
      return { access_token: validToken, expires_in: tokenSeconds };
    }
    if (request.method === 'GET' && url.pathname === '/cgi-bin/ticket/getticket') {
      calls.ticket += 1;
      const errcode = refused('ticket');
      if (errcode !== undefined) return refusal(errcode);
      const token = url.searchParams.get('access_token');
      if (!token || token !== validToken) return refusal(40001);
      if (url.searchParams.get('type') !== 'jsapi') return refusal(40097);
      ticket = randomBytes(60).toString('base64url');
      return { errcode: 0, errmsg: 'ok', ticket, expires_in: ticketSeconds };
    }
    return undefined;
  }

  const server = createServer((request, response) => {
    void answer(request).then(async (body) => {
      if (body && padding)
        await sendPadded(response, body, padding.bytes, padding.framing, oversized);
      else if (body) send(response, body);
      else response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    calls,
    get ticket() {
      return ticket;
    },
    expireAll() {
      validToken = undefined;
      ticket = undefined;
    },
    refuse(kind, errcode, times = 1) {
      refusals[kind] = { errcode, times };
    },
    delay(ms) {
      delayMs = ms;
    },
    oversize(bytes, framing) {
      padding = { bytes, framing };
    },
    oversized,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
