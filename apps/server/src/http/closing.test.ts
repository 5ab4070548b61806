import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { listenOnLoopback } from '../test-support/raw-http.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import { SERVER_TIMEOUTS } from './server-timeouts.ts';
import { sleep } from '../timing/sleep.ts';

/** A client's deadlines 10 minutes off: a close that waits for one fails by far, on any machine. */
const LONG = { ...SERVER_TIMEOUTS, headersMs: 600_000, requestMs: 600_000, idleMs: 600_000 };

/** The responses in what a server wrote on one connection, in order. */
function responsesIn(text: string): { status: number; headers: string; body: string }[] {
  return text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((part) => part !== '')
    .map((part) => {
      const [headers = '', body = ''] = part.split('\r\n\r\n');
      return { status: Number(headers.slice(9, 12)), headers: headers.toLowerCase(), body };
    });
}

describe('a server shutting down', () => {
  it('answers a request still arriving on an open connection 503 in the error shape, and closes it', async () => {
    const app = await buildTestApp({});
    const port = await listenOnLoopback(app);
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    // A request in flight (its body not all sent) when the shutdown starts…
    socket.write(
      `POST ${API_BASE_PATH}/demo/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        'Content-Type: application/json\r\nContent-Length: 14\r\n\r\n{"userId"',
    );
    await sleep(200);
    const closing = app.close();
    await sleep(100);
    // …finishes, and another comes on the same connection.
    socket.write(`:"."}GET ${API_BASE_PATH}/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    // A limit for a server that never closes it, not a speed: the answers are checked below.
    await Promise.race([closed, sleep(30_000)]);
    socket.destroy();
    await closing;

    const [first, second] = responsesIn(Buffer.concat(chunks).toString('utf8'));
    expect(first?.status).toBe(400); // the one in flight is answered as usual
    expect(second?.status).toBe(503);
    expect(second?.headers).toContain('connection: close');
    expect(second?.headers).toContain('retry-after: 5');
    expect(JSON.parse(second?.body ?? '')).toEqual({
      error: {
        code: 'service_unavailable',
        message: expect.any(String) as string,
        requestId: expect.any(String) as string,
      },
    });
  });

  it('does not wait for a connection that has sent nothing (a preconnect) to time out', async () => {
    const app = await buildTestApp({}, { timeouts: LONG });
    const port = await listenOnLoopback(app);
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const started = performance.now();
    await app.close();
    await closed;
    // Without closing it, the shutdown would wait for the headers timeout: ten times this.
    expect(performance.now() - started).toBeLessThan(LONG.headersMs / 10);
  });

  it('answers 503 a request sent on a kept-alive connection just as the shutdown began, not a reset', async () => {
    const app = await buildTestApp({});
    const port = await listenOnLoopback(app);
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let reset = '';
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reset = error.code ?? error.message;
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    const health = `GET ${API_BASE_PATH}/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    // One request answered: the connection is kept alive, idle.
    socket.write(health);
    await new Promise<void>((resolve) => {
      const check = () => {
        if (responsesIn(Buffer.concat(chunks).toString('utf8')).length === 1) resolve();
        else socket.once('data', check);
      };
      check();
    });
    // The next request leaves as the shutdown begins (a proxy's pool does not know yet).
    const closing = app.close();
    socket.write(health);
    await Promise.race([closed, sleep(30_000)]);
    await closing;

    expect(reset).toBe('');
    const [first, second] = responsesIn(Buffer.concat(chunks).toString('utf8'));
    expect(first?.status).toBe(200);
    expect(second?.status).toBe(503);
    expect(second?.headers).toContain('connection: close');
  });
});
