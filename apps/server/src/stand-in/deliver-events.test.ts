import Fastify, { type FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '@guquan/contract/platform-events';
import { postTo } from '../http/signed-deliveries.ts';
import {
  DeliveryRefusedError,
  deliverEvents,
  type PostDelivery,
  type RetryNotice,
  type SignedDelivery,
} from './deliver-events.ts';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const events = (count: number): PlatformEvent[] =>
  Array.from({ length: count }, (_, index) => ({
    type: 'user.deleted',
    data: { id: `user${index}`, version: 1 },
  }));

/** A site that verifies each delivery as the real one does and answers from `answers`. */
function fakeSite(answers: (number | Error)[] = []) {
  const received: SignedDelivery[] = [];
  const post: PostDelivery = (delivery) => {
    received.push(delivery);
    try {
      new Webhook(SECRET).verify(delivery.body, delivery.headers);
    } catch (error) {
      // Final, so a test sees it at once rather than retrying on.
      return Promise.resolve({ status: 400, body: String(error) });
    }
    const next = answers.shift() ?? 200;
    if (next instanceof Error) return Promise.reject(next);
    const count = (JSON.parse(delivery.body) as { events: unknown[] }).events.length;
    return Promise.resolve({
      status: next,
      body: next === 200 ? JSON.stringify({ applied: count, ignored: 0 }) : '{"error":{}}',
    });
  };
  return { received, post };
}

const body = (delivery: SignedDelivery | undefined) =>
  JSON.parse(delivery?.body ?? '{}') as { events: { data: { id: string } }[] };

describe('delivering events to the site', () => {
  it('sends batches of at most 500 in order, each signed, each with its own id', async () => {
    const site = fakeSite();
    const report = await deliverEvents(events(1201), { secret: SECRET, post: site.post });
    expect(report).toEqual({ batches: 3, applied: 1201, ignored: 0 });
    expect(site.received.map((delivery) => body(delivery).events.length)).toEqual([500, 500, 201]);
    expect(body(site.received[1]).events[0]?.data.id).toBe('user500');
    const ids = site.received.map((delivery) => delivery.headers['webhook-id']);
    expect(new Set(ids).size).toBe(3);
    for (const delivery of site.received) {
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
  });

  it('retries a failed batch with the same id, a fresh signature and growing waits', async () => {
    const site = fakeSite([503, new Error('connect ECONNREFUSED'), 401, 200]);
    const notices: RetryNotice[] = [];
    let clock = Date.now() - 60_000;
    const report = await deliverEvents(events(3), {
      secret: SECRET,
      post: site.post,
      firstWaitMs: 1,
      maxWaitMs: 3,
      onRetry: (notice) => notices.push(notice),
      now: () => new Date((clock += 10_000)),
    });
    expect(report).toEqual({ batches: 1, applied: 3, ignored: 0 });
    expect(site.received).toHaveLength(4);
    expect(new Set(site.received.map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(new Set(site.received.map((d) => d.headers['webhook-timestamp'])).size).toBe(4);
    expect(notices).toEqual([
      { batch: 0, attempt: 1, status: 503, waitMs: 1 },
      { batch: 0, attempt: 2, error: 'connect ECONNREFUSED', waitMs: 2 },
      { batch: 0, attempt: 3, status: 401, waitMs: 3 },
    ]);
  });

  it('stops at a 400 or 413, which no retry would change', async () => {
    for (const status of [400, 413]) {
      const site = fakeSite([status]);
      await expect(
        deliverEvents(events(2), { secret: SECRET, post: site.post, firstWaitMs: 1 }),
      ).rejects.toBeInstanceOf(DeliveryRefusedError);
      expect(site.received).toHaveLength(1);
    }
  });

  it('stops waiting when told to', async () => {
    const site = fakeSite([503, 503, 503]);
    const controller = new AbortController();
    const delivery = deliverEvents(events(1), {
      secret: SECRET,
      post: site.post,
      firstWaitMs: 60_000,
      signal: controller.signal,
    });
    controller.abort();
    await expect(delivery).rejects.toThrow();
  });

  it('refuses batches of more than 500', async () => {
    await expect(
      deliverEvents(events(1), { secret: SECRET, post: fakeSite().post, batchSize: 501 }),
    ).rejects.toBeInstanceOf(RangeError);
  });
});

describe('over HTTP', () => {
  let site: FastifyInstance;
  let url: string;
  const seen: { raw: string; headers: Record<string, string> }[] = [];
  beforeAll(async () => {
    site = Fastify();
    site.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
      done(null, raw);
    });
    site.post('/events', async (request, reply) => {
      const headers = request.headers as Record<string, string>;
      seen.push({ raw: request.body as string, headers });
      new Webhook(SECRET).verify(request.body as string, headers);
      return seen.length === 1
        ? reply.code(429).header('retry-after', '0').send({ error: {} })
        : reply.send({ applied: 1, ignored: 1 });
    });
    url = `${await site.listen({ host: '127.0.0.1', port: 0 })}/events`;
  });
  afterAll(async () => {
    await site.close();
  });

  it('sends the body exactly as signed, and retries after a 429', async () => {
    const report = await deliverEvents(events(2), {
      secret: SECRET,
      post: postTo(url),
      firstWaitMs: 1,
    });
    expect(report).toEqual({ batches: 1, applied: 1, ignored: 1 });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.raw).toBe(JSON.stringify({ events: events(2) }));
    expect(seen[1]?.headers['webhook-id']).toBe(seen[0]?.headers['webhook-id']);
  });
});
