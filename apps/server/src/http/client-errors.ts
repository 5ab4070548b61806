import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { apiError } from './api-error.ts';

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (a malformed header, a URL or
 * headers past the size limit, a request that took too long) are answered here, in the one
 * error shape, instead of Fastify's default `{ error, message, statusCode }`. Nothing of the
 * request is echoed back.
 */
interface ClientError extends Error {
  code?: string;
}

const ANSWERS: Record<string, [status: number, code: string, message: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request took too long to arrive.'],
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The address or headers are too long.'],
};
const MALFORMED: [number, string, string] = [400, 'bad_request', 'The request is malformed.'];

/** True once a response has begun on the socket: writing another would corrupt it. */
function responseStarted(socket: Socket): boolean {
  const message: unknown = Reflect.get(socket, '_httpMessage');
  return (
    typeof message === 'object' && message !== null && Reflect.get(message, 'headersSent') === true
  );
}

export function clientErrorResponse(error: ClientError): string {
  const [status, code, message] = ANSWERS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify(apiError(code, message));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    'cache-control: no-store',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Fastify's `clientErrorHandler`: answer once, if the socket can still take it, then close. */
export function handleClientError(error: ClientError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable && !responseStarted(socket)) {
    socket.end(clientErrorResponse(error), () => socket.destroy());
  } else {
    socket.destroy();
  }
}
