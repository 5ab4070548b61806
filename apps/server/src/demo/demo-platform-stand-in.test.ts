import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PLATFORM_FAULTS_PATH,
  DEMO_PLATFORM_PATH,
  demoPlatformSchema,
} from '@guquan/contract/demo-platform';
import { buildTestApp } from '../test-support/test-app.ts';
import { DEMO_IDS } from './seed/demo-ids.ts';

/**
 * The simulator's view of the real stand-in platform, as `npm start` runs it: its points ledger
 * and events receiver answer in the shapes the panel reads, and take the faults it sets.
 */
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

const read = async () => {
  const response = await app.inject({ method: 'GET', url: DEMO_PLATFORM_PATH });
  expect(response.statusCode).toBe(200);
  return demoPlatformSchema.parse(response.json());
};

describe('the demo platform on the stand-in', () => {
  it('shows its ledger (the demo users’ balances) and its receiver', async () => {
    const view = await read();
    expect(view.ledger?.balances.map((entry) => entry.userId)).toContain(DEMO_IDS.users.conductor);
    expect(view.ledger?.nextDebitFault).toBe('none');
    expect(view.received?.failNext).toBe(0);
  });

  it('sets the next debit’s fault and the receiver’s failures there', async () => {
    const set = await app.inject({
      method: 'POST',
      url: DEMO_PLATFORM_FAULTS_PATH,
      payload: { debit: 'hang', eventsFailNext: 2 },
    });
    expect(set.statusCode).toBe(204);
    const view = await read();
    expect(view.ledger?.nextDebitFault).toBe('hang');
    expect(view.received?.failNext).toBe(2);
    const reset = await app.inject({
      method: 'POST',
      url: DEMO_PLATFORM_FAULTS_PATH,
      payload: { debit: 'none', eventsFailNext: 0 },
    });
    expect(reset.statusCode).toBe(204);
    expect(await read()).toMatchObject({
      ledger: { nextDebitFault: 'none' },
      received: { failNext: 0 },
    });
  });
});
