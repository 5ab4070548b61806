import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { PLATFORM_EVENTS_PATH } from '@guquan/contract/platform-events';
import { DeliveryRefused, deliverLines, deliveryBody, lineRefusalOf } from './signed-delivery.ts';

const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A site's endpoint that answers each request with the next of `answers`. */
async function endpoint(
  answers: { status: number; body: unknown; headers?: Record<string, string> }[],
): Promise<{ origin: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      const answer = answers[Math.min(received.length - 1, answers.length - 1)];
      response.writeHead(answer?.status ?? 500, {
        'content-type': 'application/json',
        ...answer?.headers,
      });
      response.end(JSON.stringify(answer?.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, received };
}

function verified(request: Received): unknown {
  const headers: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    headers[name] = String(request.headers[name]);
  }
  return new Webhook(SECRET).verify(request.body, headers);
}

const LINES = [
  '{"type":"user.deleted","data":{"id":"a","version":1}}',
  '{"type":"x.y","data":{"谷":1}}',
];

describe('a signed delivery of an import file’s lines', () => {
  it('posts the lines as they are, signed by Standard Webhooks, to the events endpoint', async () => {
    const site = await endpoint([{ status: 200, body: { applied: 1, ignored: 1 } }]);
    const result = await deliverLines({ origin: site.origin, secret: SECRET }, LINES);
    expect(result).toEqual({ applied: 1, ignored: 1 });
    const [request] = site.received;
    if (!request) throw new Error('nothing received');
    expect(request.path).toBe(PLATFORM_EVENTS_PATH);
    expect(request.body.equals(deliveryBody(LINES))).toBe(true);
    expect(request.body.toString()).toBe(`{"events":[${LINES.join(',')}]}`);
    expect(verified(request)).toEqual({
      events: [JSON.parse(LINES[0] ?? ''), JSON.parse(LINES[1] ?? '')],
    });
  });

  it('retries a 503, a 429 and a lost connection with the same webhook-id, signed afresh', async () => {
    const site = await endpoint([
      { status: 503, body: { error: { code: 'unavailable', message: 'busy' } } },
      {
        status: 429,
        body: { error: { code: 'too_many_requests', message: 'slow down' } },
        headers: { 'retry-after': '2' },
      },
      { status: 200, body: { applied: 2, ignored: 0 } },
    ]);
    const waits: number[] = [];
    const result = await deliverLines(
      {
        origin: site.origin,
        secret: SECRET,
        wait: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
      LINES,
    );
    expect(result).toEqual({ applied: 2, ignored: 0 });
    expect(waits).toEqual([1000, 2000]);
    const ids = new Set(site.received.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of site.received) expect(verified(request)).toBeTruthy();
  });

  it('gives up after its attempts', async () => {
    const site = await endpoint([{ status: 502, body: {} }]);
    await expect(
      deliverLines(
        { origin: site.origin, secret: SECRET, attempts: 3, wait: () => Promise.resolve() },
        LINES,
      ),
    ).rejects.toThrow(/gave up after 3 attempts: 502/);
    expect(site.received).toHaveLength(3);
  });

  it('throws a refusal the site gave (400), naming the line the site named', async () => {
    const message = 'events[1].data.images[0].url: must be on one of the platform media origins';
    const site = await endpoint([
      { status: 400, body: { error: { code: 'invalid_events', message } } },
    ]);
    const refused = await deliverLines({ origin: site.origin, secret: SECRET }, LINES).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DeliveryRefused);
    expect(site.received).toHaveLength(1);
    expect(lineRefusalOf(refused as DeliveryRefused, [{ line: 10 }, { line: 12 }])).toEqual({
      line: 12,
      path: 'data.images[0].url',
      message: 'must be on one of the platform media origins',
    });
  });
});
