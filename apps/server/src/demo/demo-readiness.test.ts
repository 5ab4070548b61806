import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerHealth } from '../health/health-plugin.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { insertWaitingImage } from '../test-support/waiting-image-rows.ts';
import { demoDataReadiness } from './demo-readiness.ts';

let data: TestDatabase;
beforeAll(async () => {
  data = await openTestDatabase();
});
afterAll(async () => {
  await data.close();
});

describe("a demo server's readiness", () => {
  it('waits for every image of the demo community, then stays ready', async () => {
    expect(await demoDataReadiness(data.db)()).toBe(true);
    const image = await insertWaitingImage(data.db, 'http://127.0.0.1:9/media/late.webp');
    const readiness = demoDataReadiness(data.db);
    expect(await readiness()).toBe(false);
    await data.db
      .updateTable('images')
      .set({ state: 'ready' })
      .where('id', '=', image.id)
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await readiness()).toBe(true);
    // Once ready, it never asks again.
    await data.db
      .updateTable('images')
      .set({ state: 'waiting' })
      .where('id', '=', image.id)
      .execute();
    expect(await readiness()).toBe(true);
    await data.db
      .updateTable('images')
      .set({ state: 'ready' })
      .where('id', '=', image.id)
      .execute();
  });

  it('/health says starting (503) until the demo data has come, then ok', async () => {
    let ready = false;
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await registerHealth(app, { ready: () => Promise.resolve(ready) });
    const starting = await app.inject({ url: '/anime_merch_web/api/v1/health' });
    expect(starting.statusCode).toBe(503);
    expect(starting.json()).toEqual({ status: 'starting' });
    expect(starting.headers['retry-after']).toBe('1');
    ready = true;
    const up = await app.inject({ url: '/anime_merch_web/api/v1/health' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ status: 'ok' });
    await app.close();
  });
});
