import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEMO_PLATFORM_FAULTS_PATH,
  DEMO_PLATFORM_PATH,
  STAND_IN_DEMO_PATHS,
  demoPlatformSchema,
  type StandInLedger,
  type StandInReceivedEvents,
} from '@guquan/contract/demo-platform';
import { buildTestApp, TEST_PLATFORM_ENV } from '../test-support/test-app.ts';

/**
 * The simulator's view of the stand-in platform: the site reads the stand-in's demo routes and
 * forwards faults to them. The stand-in here is a fake one speaking the shapes of the brief
 * (the real ledger and receiver are their own parts' tests), so each part can be missing.
 */
const LEDGER: StandInLedger = {
  balances: [{ userId: 'Uq3x9TmKd2Lp7Wz1', balance: 1300 }],
  debits: [
    {
      key: '0f8e1c52-9d7a-4a57-9d33-7a4b4d2f0c11',
      userId: 'Uq3x9TmKd2Lp7Wz1',
      points: 200,
      designId: 'Dz4k8Lq2Wm6Np0Rs',
      outcome: 'charged',
      balance: 1300,
      at: '2026-11-26T23:00:00.000Z',
    },
  ],
  nextDebitFault: 'none',
  heldFrom: [],
};
const RECEIVED: StandInReceivedEvents = {
  deliveries: [
    {
      webhookId: 'msg_2Zb8Xq',
      receivedAt: '2026-11-26T23:01:00.000Z',
      events: [{ type: 'account.deletion_requested', userId: 'Uq3x9TmKd2Lp7Wz1' }],
      attempt: 2,
    },
  ],
  failNext: 0,
};

interface FakeStandIn {
  origin: string;
  parts: { ledger: boolean; receiver: boolean };
  /** What the stand-in answers on its routes (a status other than 200/204 to break them). */
  status: number;
  body: { ledger: unknown; received: unknown };
  posts: { path: string; authorization: string | undefined; body: unknown }[];
  close: () => Promise<void>;
}

async function startFakeStandIn(): Promise<FakeStandIn> {
  const server: FastifyInstance = Fastify({ logger: false });
  const fake: FakeStandIn = {
    origin: '',
    parts: { ledger: true, receiver: true },
    status: 200,
    body: { ledger: LEDGER, received: RECEIVED },
    posts: [],
    close: () => server.close(),
  };
  server.get(STAND_IN_DEMO_PATHS.ledger, (_request, reply) =>
    fake.parts.ledger
      ? reply.code(fake.status).send(fake.body.ledger)
      : reply.code(404).send({ error: { code: 'not_found', message: 'No such route.' } }),
  );
  server.get(STAND_IN_DEMO_PATHS.receivedEvents, (_request, reply) =>
    fake.parts.receiver
      ? reply.code(fake.status).send(fake.body.received)
      : reply.code(404).send({ error: { code: 'not_found', message: 'No such route.' } }),
  );
  for (const [path, part] of [
    [STAND_IN_DEMO_PATHS.ledgerFault, 'ledger'],
    [STAND_IN_DEMO_PATHS.receivedEventsFault, 'receiver'],
  ] as const) {
    server.post(path, (request, reply) => {
      if (!fake.parts[part]) return reply.code(404).send();
      fake.posts.push({ path, authorization: request.headers.authorization, body: request.body });
      return reply.code(fake.status === 200 ? 204 : fake.status).send();
    });
  }
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  fake.origin = `http://127.0.0.1:${address.port}`;
  return fake;
}

let standIn: FakeStandIn;
let app: FastifyInstance;

beforeAll(async () => {
  standIn = await startFakeStandIn();
  app = await buildTestApp({ ...TEST_PLATFORM_ENV, PLATFORM_API_URL: standIn.origin });
});
afterAll(async () => {
  await app.close();
  await standIn.close();
});
beforeEach(() => {
  standIn.parts = { ledger: true, receiver: true };
  standIn.status = 200;
  standIn.body = { ledger: LEDGER, received: RECEIVED };
  standIn.posts = [];
});

const read = () => app.inject({ method: 'GET', url: DEMO_PLATFORM_PATH });
const setFaults = (payload: unknown) =>
  app.inject({ method: 'POST', url: DEMO_PLATFORM_FAULTS_PATH, payload: payload as object });

describe('GET the demo platform', () => {
  it('answers the stand-in’s ledger and received deliveries, never cached', async () => {
    const response = await read();
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(demoPlatformSchema.parse(response.json())).toEqual({
      ledger: LEDGER,
      received: RECEIVED,
    });
  });

  it('answers null for a part the stand-in does not have yet (404)', async () => {
    standIn.parts = { ledger: false, receiver: true };
    expect((await read()).json()).toEqual({ ledger: null, received: RECEIVED });
    standIn.parts = { ledger: true, receiver: false };
    expect((await read()).json()).toEqual({ ledger: LEDGER, received: null });
  });

  it('answers 502 when the stand-in answers something else than its shapes', async () => {
    standIn.body = { ledger: { ...LEDGER, nextDebitFault: 'explode' }, received: RECEIVED };
    const wrong = await read();
    expect(wrong.statusCode).toBe(502);
    expect(wrong.json()).toMatchObject({ error: { code: 'platform_unavailable' } });
    standIn.body = { ledger: LEDGER, received: RECEIVED };
    standIn.status = 500;
    expect((await read()).statusCode).toBe(502);
  });
});

describe('POST the demo platform’s faults', () => {
  it('forwards the next debit’s fault and the receiver’s failures, with the service token', async () => {
    const response = await setFaults({ debit: 'lose_answer', eventsFailNext: 3 });
    expect(response.statusCode).toBe(204);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(standIn.posts).toEqual([
      {
        path: STAND_IN_DEMO_PATHS.ledgerFault,
        authorization: `Bearer ${TEST_PLATFORM_ENV.PLATFORM_API_TOKEN}`,
        body: { fault: 'lose_answer' },
      },
      {
        path: STAND_IN_DEMO_PATHS.receivedEventsFault,
        authorization: `Bearer ${TEST_PLATFORM_ENV.PLATFORM_API_TOKEN}`,
        body: { failNext: 3 },
      },
    ]);
  });

  it('forwards only the part given', async () => {
    expect((await setFaults({ eventsFailNext: 0 })).statusCode).toBe(204);
    expect(standIn.posts.map((post) => post.body)).toEqual([{ failNext: 0 }]);
  });

  it('answers 400 for bad input and forwards nothing', async () => {
    for (const payload of [
      {},
      { debit: 'explode' },
      { eventsFailNext: 11 },
      { eventsFailNext: -1 },
      { eventsFailNext: 1.5 },
      { debit: 'fail', other: true },
    ]) {
      const response = await setFaults(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: expect.any(String) as string } });
    }
    expect(standIn.posts).toEqual([]);
  });

  it('answers 502 when the stand-in does not take the fault', async () => {
    standIn.parts = { ledger: false, receiver: true };
    const missing = await setFaults({ debit: 'fail' });
    expect(missing.statusCode).toBe(502);
    expect(missing.json()).toMatchObject({ error: { code: 'platform_unavailable' } });
  });
});

describe('with the stand-in down', () => {
  it('answers 502 to reads and faults', async () => {
    await standIn.close();
    for (const response of [await read(), await setFaults({ debit: 'fail' })]) {
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ error: { code: 'platform_unavailable' } });
    }
  });
});
