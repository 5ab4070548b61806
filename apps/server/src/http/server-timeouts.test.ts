import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { listenOnLoopback, parseRawResponse, rawExchange } from '../test-support/raw-http.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { SERVER_TIMEOUTS } from './server-timeouts.ts';

/** The production figures, scaled down so a stalled client is dealt with in about a second. */
const SHORT = {
  headersMs: 600,
  requestMs: 800,
  idleMs: 3_000,
  keepAliveMs: 3_000,
  checkIntervalMs: 100,
};

/** Node's timers may fire a few milliseconds early. */
const EARLY_MS = 50;
/** How long a test waits for the server to close: a limit for a server that never does. */
const WAIT_MS = 30_000;

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  app = await buildTestApp({}, { timeouts: SHORT });
  port = await listenOnLoopback(app);
});
afterAll(() => app.close());

describe('timeouts', () => {
  it('keeps idle keep-alive connections longer than nginx does (60 s)', () => {
    expect(SERVER_TIMEOUTS.keepAliveMs).toBeGreaterThan(60_000);
    expect(SERVER_TIMEOUTS.headersMs).toBeLessThanOrEqual(SERVER_TIMEOUTS.requestMs);
  });

  it('answers 408 and closes when a body stalls', async () => {
    // Announces 60 kB, sends a few bytes, then nothing.
    const answer = await rawExchange(
      port,
      `POST ${API_BASE_PATH}/demo/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        'Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"userId":',
      WAIT_MS,
    );
    // The server closed it, by its own deadline: not before it.
    expect(answer.closed).toBe(true);
    expect(answer.ms).toBeGreaterThanOrEqual(SHORT.requestMs - EARLY_MS);
    const { status, body } = parseRawResponse(answer.text);
    expect(status).toBe(408);
    expect(body).toEqual({
      error: { code: 'request_timeout', message: expect.any(String) as string },
    });
  });

  it('closes a connection whose headers never end', async () => {
    const answer = await rawExchange(
      port,
      `GET ${API_BASE_PATH}/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a`,
      WAIT_MS,
    );
    expect(answer.closed).toBe(true);
    expect(answer.ms).toBeGreaterThanOrEqual(SHORT.headersMs - EARLY_MS);
    // Answered, as a timeout: not dropped by the idle timeout (3 s).
    expect(parseRawResponse(answer.text).status).toBe(408);
  });
});
