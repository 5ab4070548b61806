import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_EVENTS_PATH } from '@guquan/contract/platform-events';
import { signedHeaders } from '../test-support/platform-deliveries.ts';
import { listenOnLoopback, parseRawResponse } from '../test-support/raw-http.ts';
import { buildTestApp, TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { sleep } from '../timing/sleep.ts';

/**
 * A delivery past 5 MB, sent by a client that writes its whole body before it reads (Python's
 * urllib, many senders' HTTP libraries): it must read the 413, not meet a reset connection,
 * which such a sender takes for a network error and retries for ever. And a body that does not
 * end must not be read for ever.
 */
const MB = 1024 * 1024;

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = await buildTestApp({ ...TEST_PLATFORM_ENV });
  port = await listenOnLoopback(app);
});
afterAll(async () => {
  await app.close();
});

/** A connection to the app, with what the server wrote and how it ended. */
interface Connection {
  socket: Socket;
  /** Writes bytes; false once the connection failed or closed (nothing more can be sent). */
  send: (bytes: Buffer | string) => Promise<boolean>;
  /** What the server wrote, once it closed the connection (or `waitMs` passed). */
  answer: (waitMs: number) => Promise<{ text: string; error: string | undefined }>;
}

async function open(): Promise<Connection> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const chunks: Buffer[] = [];
  let error: string | undefined;
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
  });
  socket.on('error', (failure: NodeJS.ErrnoException) => {
    error ??= failure.code ?? failure.message;
  });
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      resolve();
    });
  });
  return {
    socket,
    send: (bytes) =>
      new Promise((resolve) => {
        if (socket.destroyed || error !== undefined) {
          resolve(false);
          return;
        }
        socket.write(bytes, (failure) => {
          resolve(failure == null && error === undefined);
        });
      }),
    answer: async (waitMs) => {
      await Promise.race([closed, sleep(waitMs)]);
      socket.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), error };
    },
  };
}

function head(headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `POST ${PLATFORM_EVENTS_PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('a delivery past 5 MB', () => {
  it('is answered 413 to a client that sends 6 MB whole and then reads', async () => {
    const body = JSON.stringify({ events: [], padding: 'x'.repeat(6 * MB) });
    const connection = await open();
    let sent = await connection.send(
      head({ ...signedHeaders(body), 'content-length': String(Buffer.byteLength(body)) }),
    );
    for (let at = 0; sent && at < body.length; at += 64 * 1024) {
      sent = await connection.send(body.slice(at, at + 64 * 1024));
    }
    const { text, error } = await connection.answer(10_000);
    // Before: the server answered at once and closed, and the client's writes met EPIPE or
    // ECONNRESET.
    expect(error).toBeUndefined();
    expect(sent).toBe(true);
    expect(parseRawResponse(text)).toMatchObject({
      status: 413,
      body: { error: { code: 'payload_too_large' } },
    });
  });

  it('is cut short when it claims 100 MB: answered at once and closed, never read whole', async () => {
    const connection = await open();
    let sent = await connection.send(
      head({ ...signedHeaders('{}'), 'content-length': String(100 * MB) }),
    );
    let bytes = 0;
    const chunk = Buffer.alloc(MB, 0x20);
    while (sent && bytes < 100 * MB) {
      sent = await connection.send(chunk);
      if (sent) bytes += chunk.length;
    }
    const { text } = await connection.answer(10_000);
    expect(sent).toBe(false);
    // What the kernels' buffers took before the close, and no more.
    expect(bytes).toBeLessThan(40 * MB);
    if (text !== '') expect(parseRawResponse(text).status).toBe(413);
  });

  it('is read up to a bound and the connection closed when its chunked body does not end', async () => {
    const connection = await open();
    let sent = await connection.send(
      head({ ...signedHeaders('{}'), 'transfer-encoding': 'chunked' }),
    );
    let bytes = 0;
    const chunk = Buffer.concat([
      Buffer.from(`${MB.toString(16)}\r\n`),
      Buffer.alloc(MB, 0x20),
      Buffer.from('\r\n'),
    ]);
    while (sent && bytes < 200 * MB) {
      sent = await connection.send(chunk);
      if (sent) bytes += MB;
    }
    await connection.answer(10_000);
    expect(sent).toBe(false);
    expect(bytes).toBeLessThan(60 * MB);
  });
});
