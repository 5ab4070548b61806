import type { Readable } from 'node:stream';
import { errorCodes } from 'fastify';

export interface RequestBodyLimits {
  /** The largest body taken, in bytes; a larger one is answered 413. */
  maxBytes: number;
  /**
   * How much of a body past `maxBytes` is still read, and dropped, before the 413: a client that
   * writes its whole body before it reads (Python's urllib) then reads the answer, where a close
   * with its bytes unread would reset the connection under it (EPIPE, ECONNRESET), which it
   * takes for a network error and retries. Past this, or when Content-Length says more, the 413
   * goes at once and the connection is closed.
   */
  drainBytes: number;
}

/**
 * A request's body as bytes, within `limits`: Fastify's own parser answers 413 the moment a body
 * passes its limit and closes the connection with the rest unread. The slowest sender is bounded
 * by the server's request timeout (http/server-timeouts.ts). Rejects with Fastify's errors (413,
 * or 400 for a body that does not match its Content-Length), which the error handler answers in
 * the one error shape, closing the connection.
 */
export function readRequestBody(
  payload: Readable,
  contentLength: string | undefined,
  { maxBytes, drainBytes }: RequestBodyLimits,
): Promise<Buffer> {
  const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
  if (declared > drainBytes) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
    };
    function onData(chunk: Buffer) {
      received += chunk.length;
      if (received > drainBytes) {
        stop();
        // Read no more: the answer goes now, and the connection closes after it.
        payload.pause();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      if (received <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    }
    function onEnd() {
      stop();
      if (received > maxBytes) reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      else if (!Number.isNaN(declared) && received !== declared) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      } else resolve(Buffer.concat(chunks, received));
    }
    function onError(error: Error) {
      stop();
      reject(Object.assign(error, { statusCode: 400 }));
    }
    payload.on('data', onData);
    payload.once('end', onEnd);
    payload.once('error', onError);
  });
}
