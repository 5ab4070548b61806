import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { startWeChatStandIn, type WeChatStandIn } from '../test-support/wechat-stand-in.ts';
import { credentialCache, type CredentialCacheOptions } from './credential-cache.ts';
import { WeChatApiError, weChatApi } from './wechat-api.ts';

const APP_ID = 'wx1234567890abcdef';
const SECRET = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const config = (base: string) => ({
  appId: APP_ID,
  appSecret: SECRET,
  openAppId: 'wxfedcba0987654321',
  apiBase: base,
});

let database: TestDatabase;
let wechat: WeChatStandIn;
let clock: number;

beforeEach(async () => {
  database = await openTestDatabase({ seed: false });
  wechat = await startWeChatStandIn({ appId: APP_ID, appSecret: SECRET });
  clock = Date.parse('2026-11-23T10:00:00Z');
});

afterEach(async () => {
  await wechat.stop();
  await database.close();
});

/** One server's cache; several made on the same database behave as several servers. */
function server(options: Partial<CredentialCacheOptions> = {}) {
  return credentialCache({
    db: database.db,
    api: weChatApi(config(wechat.base)),
    appId: APP_ID,
    now: () => new Date(clock),
    ...options,
  });
}

describe('the jsapi ticket cache', () => {
  it('fetches the token and the ticket once, then serves them from the database', async () => {
    const first = await server().jsapiTicket();
    expect(first).toBe(wechat.ticket);
    expect(await server().jsapiTicket()).toBe(first);
    expect(wechat.calls).toEqual({ token: 1, ticket: 1 });
  });

  it('fetches again a little before they expire (5 minutes), not earlier', async () => {
    const cache = server();
    const first = await cache.jsapiTicket();
    clock += (7200 - 301) * 1000;
    expect(await cache.jsapiTicket()).toBe(first);
    expect(wechat.calls.ticket).toBe(1);
    clock += 2000;
    const second = await cache.jsapiTicket();
    expect(second).not.toBe(first);
    expect(wechat.calls).toEqual({ token: 2, ticket: 2 });
  });

  it('asks WeChat once when many requests on many servers find the ticket stale at once', async () => {
    wechat.delay(100);
    const servers = [server(), server(), server()];
    const tickets = await Promise.all(
      Array.from({ length: 12 }, (_, index) => (servers[index % 3] ?? server()).jsapiTicket()),
    );
    expect(new Set(tickets).size).toBe(1);
    expect(tickets[0]).toBe(wechat.ticket);
    expect(wechat.calls).toEqual({ token: 1, ticket: 1 });
  });

  it('keeps using the old ticket while another server fetches the new one', async () => {
    const old = await server().jsapiTicket();
    clock += 7000 * 1000; // within 5 minutes of its end, still valid
    wechat.delay(300);
    const fetching = server().jsapiTicket();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await server().jsapiTicket()).toBe(old);
    expect(await fetching).not.toBe(old);
  });

  it('gets a new token once when WeChat says the token is no longer valid (40001)', async () => {
    await wechat.stop();
    wechat = await startWeChatStandIn({ appId: APP_ID, appSecret: SECRET, ticketSeconds: 3600 });
    await server().jsapiTicket();
    wechat.expireAll();
    clock += 3400 * 1000; // the ticket is due, the token not yet, but WeChat no longer takes it
    const ticket = await server().jsapiTicket();
    expect(ticket).toBe(wechat.ticket);
    expect(wechat.calls).toEqual({ token: 2, ticket: 3 });
  });

  it('fails with WeChat’s errcode, then lets nobody ask again for the backoff', async () => {
    wechat.refuse('ticket', 45009);
    const error = await server()
      .jsapiTicket()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WeChatApiError);
    expect(error).toMatchObject({ errcode: 45009 });
    // Another server, at once: no call to WeChat, a quick failure.
    await expect(server({ waitMs: 10_000 }).jsapiTicket()).rejects.toThrow(/available/);
    expect(wechat.calls.ticket).toBe(1);
    clock += 11_000;
    expect(await server().jsapiTicket()).toBe(wechat.ticket);
  });

  it('serves the old ticket while it is valid when WeChat is down, and fails after', async () => {
    const old = await server().jsapiTicket();
    await wechat.stop();
    clock += 7000 * 1000;
    expect(await server().jsapiTicket()).toBe(old);
    expect(await server().jsapiTicket()).toBe(old); // during the backoff, no new attempt
    clock += 300 * 1000; // expired
    await expect(server().jsapiTicket()).rejects.toThrow(WeChatApiError);
    wechat = await startWeChatStandIn({ appId: APP_ID, appSecret: SECRET });
  });

  it('never keeps the secret; the token and ticket only in their table', async () => {
    await server().jsapiTicket();
    const rows = await database.db.selectFrom('wechat_credentials').selectAll().execute();
    expect(rows.map((row) => row.kind).sort()).toEqual(['access_token', 'jsapi_ticket']);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });

  it('refuses a wrong secret with WeChat’s errcode and no credential in the message', async () => {
    const cache = credentialCache({
      db: database.db,
      api: weChatApi({ ...config(wechat.base), appSecret: 'ffffffffffffffffffffffffffffffff' }),
      appId: APP_ID,
    });
    const error = await cache.jsapiTicket().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ errcode: 40125 });
    expect(String(error)).not.toMatch(/ffffffff/);
  });
});
