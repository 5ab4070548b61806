import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { platformDeliverySchema, type PlatformEvent } from '@guquan/contract/platform-events';
import { demoCommunityEvents } from './demo-community.ts';
import { DEMO_COMMUNITY_DELIVERIES_PATH } from '../demo/stand-in-client.ts';
import { startStandInPlatform, type StandInPlatform } from './stand-in-platform.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

let dataDir: string;
let standIn: StandInPlatform;
let site: FastifyInstance;
let eventsUrl: string;
const received: PlatformEvent[] = [];
let answers: number[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'stand-in-community-'));
  standIn = await startStandInPlatform({ dataDir, imageScale: 0.1 });
  // A site that verifies each delivery as the real one does.
  site = Fastify();
  site.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    done(null, raw);
  });
  site.post('/events', async (request, reply) => {
    const raw = request.body as string;
    new Webhook(standIn.secrets.webhookSecret).verify(
      raw,
      request.headers as Record<string, string>,
    );
    const status = answers.shift() ?? 200;
    if (status !== 200) return reply.code(status).send({ error: { code: 'down', message: '' } });
    const { events } = platformDeliverySchema.parse(JSON.parse(raw));
    received.push(...events);
    return reply.send({ applied: events.length, ignored: 0 });
  });
  eventsUrl = `${await site.listen({ host: '127.0.0.1', port: 0 })}/events`;
});
afterAll(async () => {
  await standIn.close();
  await site.close();
  await rm(dataDir, { recursive: true, force: true });
});

const ask = (body: unknown, token = standIn.secrets.apiToken) =>
  fetch(`${standIn.origin}${DEMO_COMMUNITY_DELIVERIES_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe("the stand-in's demo community deliveries", () => {
  it('sends the whole demo community to the site, signed, until the site takes it', async () => {
    answers = [503];
    const response = await ask({ eventsUrl });
    expect(response.status).toBe(202);
    const expected = demoCommunityEvents({ mediaOrigin: standIn.origin, imageScale: 0.1 });
    expect(await response.json()).toEqual({ events: expected.length });
    await vi.waitFor(() => {
      expect(received).toEqual(expected);
    }, EVENTUALLY);
  });

  it('answers only the site, with its service token', async () => {
    expect((await ask({ eventsUrl }, 'wrong')).status).toBe(401);
    expect((await ask({ eventsUrl: 'not a url' })).status).toBe(400);
    expect((await ask({ eventsUrl, more: 1 })).status).toBe(400);
  });
});
