import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface RawExchange {
  /** Everything the server wrote before it closed (or before the wait ran out). */
  text: string;
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
  /** Milliseconds from the first byte sent to the close (or to the end of the wait). */
  ms: number;
}

/**
 * Writes bytes to a server as they are, for what app.inject cannot send (a malformed header, a
 * URL past the parser's limit, a body that stalls), and collects the answer until the server
 * closes or `waitMs` passes.
 */
export function rawExchange(port: number, request: string, waitMs = 5000): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const started = performance.now();
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({
        text: Buffer.concat(chunks).toString('utf8'),
        closed,
        ms: performance.now() - started,
      });
    };
    const timer = setTimeout(() => {
      finish(false);
    }, waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      finish(true);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset a connection it has answered; what it wrote still counts.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.write(request);
  });
}

/** The status and the JSON body of a raw HTTP/1.1 response. */
export function parseRawResponse(text: string): { status: number; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  return { status, body: body === '' ? undefined : (JSON.parse(body) as unknown) };
}

/** Starts the app on a free loopback port and gives the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not a TCP server');
  return address.port;
}
