import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { API_TIMEOUT_MS, callApi, callApiWith } from './api-client';

const TOKEN = `h.p.${'T'.repeat(43)}`;
const itemSchema = z.object({ id: z.string() });

function answer(status: number, body: string | null): Response {
  return new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

function stubFetch(implementation: (url: string, init: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn(implementation);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('callApi', () => {
  it('sends the token in the header only, the body as JSON, and parses the answer', async () => {
    const fetchMock = stubFetch(() => Promise.resolve(answer(200, '{"id":"a","extra":1}')));
    const result = await callApi({
      method: 'POST',
      path: '/api/items',
      token: TOKEN,
      schema: itemSchema,
      body: { name: 'x' },
      headers: { 'idempotency-key': 'k' },
    });
    expect(result).toEqual({ ok: true, value: { id: 'a' } });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/items');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toEqual({
      accept: 'application/json',
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'idempotency-key': 'k',
    });
    expect(init?.body).toBe('{"name":"x"}');
    expect(init?.cache).toBe('no-store');
  });

  it('takes an empty 204 for z.null()', async () => {
    stubFetch(() => Promise.resolve(new Response(null, { status: 204 })));
    const result = await callApi({ method: 'DELETE', path: '/x', token: TOKEN, schema: z.null() });
    expect(result).toEqual({ ok: true, value: null });
  });

  it('tells a network failure from a timeout', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await callApi({ path: '/x', token: TOKEN, schema: itemSchema })).toEqual({
      ok: false,
      kind: 'network',
    });

    vi.useFakeTimers();
    stubFetch(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => {
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    );
    const pending = callApi({ path: '/x', token: TOKEN, schema: itemSchema });
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ ok: false, kind: 'timeout' });
  });

  it('calls an answer the contract does not allow a bad answer, with its status', async () => {
    stubFetch(() => Promise.resolve(answer(200, 'not json')));
    expect(await callApi({ path: '/x', token: TOKEN, schema: itemSchema })).toEqual({
      ok: false,
      kind: 'bad_answer',
      status: 200,
    });
    stubFetch(() => Promise.resolve(answer(200, '{"id":7}')));
    expect(await callApi({ path: '/x', token: TOKEN, schema: itemSchema })).toEqual({
      ok: false,
      kind: 'bad_answer',
      status: 200,
    });
    stubFetch(() => Promise.resolve(answer(502, '<html>Bad gateway</html>')));
    expect(await callApi({ path: '/x', token: TOKEN, schema: itemSchema })).toEqual({
      ok: false,
      kind: 'bad_answer',
      status: 502,
    });
  });

  it('gives the error shape with its status, and 401 as the end of the session', async () => {
    stubFetch(() =>
      Promise.resolve(answer(409, '{"error":{"code":"already_redeemed","message":"no"}}')),
    );
    expect(await callApi({ path: '/x', token: TOKEN, schema: itemSchema })).toEqual({
      ok: false,
      kind: 'refused',
      status: 409,
      error: { code: 'already_redeemed', message: 'no' },
    });
    stubFetch(() =>
      Promise.resolve(answer(401, '{"error":{"code":"unauthorized","message":"x"}}')),
    );
    expect(await callApi({ path: '/x', token: TOKEN, schema: itemSchema })).toEqual({
      ok: false,
      kind: 'unauthorized',
      code: 'unauthorized',
    });
    stubFetch(() => Promise.resolve(answer(401, '')));
    expect(await callApi({ path: '/x', token: TOKEN, schema: itemSchema })).toEqual({
      ok: false,
      kind: 'unauthorized',
      code: 'unauthorized',
    });
  });

  it("keeps an endpoint's own error fields with callApiWith", async () => {
    const errorSchema = z.object({
      error: z.object({ code: z.string(), message: z.string(), attemptsLeft: z.number() }),
    });
    stubFetch(() =>
      Promise.resolve(
        answer(400, '{"error":{"code":"code_wrong","message":"x","attemptsLeft":4}}'),
      ),
    );
    const result = await callApiWith(errorSchema, { path: '/x', token: TOKEN, schema: itemSchema });
    expect(result).toEqual({
      ok: false,
      kind: 'refused',
      status: 400,
      error: { code: 'code_wrong', message: 'x', attemptsLeft: 4 },
    });
  });
});
