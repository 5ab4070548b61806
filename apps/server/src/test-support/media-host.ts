import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { sleep } from '../timing/sleep.ts';

/**
 * A media host of the platform's, on loopback, for the image fetcher's tests: each path answers
 * as the test says, and every request is counted by path.
 */
export type MediaAnswer = (
  request: IncomingMessage,
  response: ServerResponse,
) => void | Promise<void>;

export interface MediaHost {
  origin: string;
  url(path: string): string;
  /** What `path` answers from now on (404 until it is set). */
  serve(path: string, answer: MediaAnswer): void;
  /** Requests per path so far. */
  requests(path: string): number;
  close(): Promise<void>;
}

export async function startMediaHost(): Promise<MediaHost> {
  const answers = new Map<string, MediaAnswer>();
  const counts = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    open.add(response);
    response.on('close', () => open.delete(response));
    const answer = answers.get(path);
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    void Promise.resolve(answer(request, response)).catch(() => {
      response.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    serve: (path, answer) => answers.set(path, answer),
    requests: (path) => counts.get(path) ?? 0,
    close: async () => {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A small photo-like image in `format`, `width` × `height`. */
export function testImage(
  format: 'jpeg' | 'png' | 'webp' | 'avif',
  width = 64,
  height = 48,
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .toFormat(format)
    .toBuffer();
}

/** Answers `bytes`, after `delayMs` (to let concurrent fetchers overlap). */
export function bytesAnswer(bytes: Buffer, type = 'image/jpeg', delayMs = 0): MediaAnswer {
  return async (_request, response) => {
    if (delayMs > 0) await sleep(delayMs);
    response.writeHead(200, { 'content-type': type, 'content-length': bytes.length }).end(bytes);
  };
}

/**
 * An image whose header is whole but whose pixels break off: a noisy `format` image (so its
 * compressed data is long) cut at 60 %. Its metadata reads; decoding it fails.
 */
export async function truncatedImage(format: 'jpeg' | 'png'): Promise<Buffer> {
  const width = 256;
  const height = 192;
  const noise = Buffer.alloc(width * height * 3);
  for (let index = 0; index < noise.length; index++) noise[index] = (index * 7919) % 251;
  const whole = await sharp(noise, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

/**
 * A host that answers 200 at once, then drips one byte a second until the fetcher hangs up:
 * `hungUp` is called when the connection closes.
 */
export function drippingAnswer(hungUp: () => void): MediaAnswer {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg' });
    response.write(Buffer.from([0xff]));
    const drip = setInterval(() => response.write(Buffer.from([0xd8])), 1_000);
    response.on('close', () => {
      clearInterval(drip);
      hungUp();
    });
  };
}
