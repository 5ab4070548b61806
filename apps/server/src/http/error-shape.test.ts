import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { listenOnLoopback, parseRawResponse, rawExchange } from '../test-support/raw-http.ts';
import { buildTestApp } from '../test-support/test-app.ts';

/**
 * Exactly the one error shape: `{ error: { code, message } }` and, once a request exists (not
 * for what Node's parser refuses first), its `requestId`; nothing else.
 */
function expectOurShape(body: unknown, code: string): void {
  const hasId =
    typeof body === 'object' &&
    body !== null &&
    'error' in body &&
    typeof body.error === 'object' &&
    body.error !== null &&
    'requestId' in body.error;
  expect(body).toEqual({
    error: {
      code,
      message: expect.any(String) as string,
      ...(hasId ? { requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) as string } : {}),
    },
  });
}

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  app = await buildTestApp();
  port = await listenOnLoopback(app);
});
afterAll(() => app.close());

const LOGIN = `${API_BASE_PATH}/demo/sessions`;

describe("Fastify's and Node's own errors, in the one shape", () => {
  it('answers a malformed header with 400', async () => {
    const answer = await rawExchange(
      port,
      `GET ${API_BASE_PATH}/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Line\r\n\r\n`,
    );
    const { status, body } = parseRawResponse(answer.text);
    expect(status).toBe(400);
    expectOurShape(body, 'bad_request');
    expect(answer.closed).toBe(true);
  });

  it('answers an over-long URL with 431', async () => {
    const answer = await rawExchange(
      port,
      `GET ${API_BASE_PATH}/health?pad=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );
    const { status, body } = parseRawResponse(answer.text);
    expect(status).toBe(431);
    expectOurShape(body, 'headers_too_large');
  });

  it('answers an unknown address with 404', async () => {
    const response = await app.inject({ method: 'POST', url: `${API_BASE_PATH}/nothing-here` });
    expect(response.statusCode).toBe(404);
    expectOurShape(response.json(), 'not_found');
  });

  it('answers a body too large with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: LOGIN,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ userId: 'x'.repeat(70_000) }),
    });
    expect(response.statusCode).toBe(413);
    expectOurShape(response.json(), 'payload_too_large');
  });

  it('answers a content type it does not read with 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: LOGIN,
      headers: { 'content-type': 'application/xml' },
      payload: '<userId>1</userId>',
    });
    expect(response.statusCode).toBe(415);
    expectOurShape(response.json(), 'unsupported_media_type');
  });

  it('answers bad JSON with 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: LOGIN,
      headers: { 'content-type': 'application/json' },
      payload: '{"userId":',
    });
    expect(response.statusCode).toBe(400);
    expectOurShape(response.json(), 'bad_request');
  });
});
