import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { SHELF_API_PATH, shelfApiPath } from '@guquan/contract/share-paths';
import { workShelfSchema } from '@guquan/contract/share-shelf';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { PUBLIC_DATA_CACHE_CONTROL } from '../http/shared-caches.ts';
import { buildTestApp } from '../test-support/test-app.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

async function shelfAt(url: string) {
  const res = await app.inject({ url });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['cache-control']).toBe(PUBLIC_DATA_CACHE_CONTROL);
  return workShelfSchema.parse(res.json());
}

describe('shelf API', () => {
  it("answers a goods' shelf: the other public goods of its work", async () => {
    const shelf = await shelfAt(shelfApiPath('goods', DEMO_IDS.goods.gallery));
    expect(shelf.work).toBe('咒术回战');
    expect(shelf.goods.length).toBeGreaterThan(0);
    expect(shelf.goods.map((goods) => goods.id)).not.toContain(DEMO_IDS.goods.gallery);
  });

  it('answers for every state of the share, as its page shows a shelf in each', async () => {
    const newest = await shelfAt(shelfApiPath('goods', DEMO_IDS.unknown));
    expect(newest.work).toBeNull();
    for (const url of [
      shelfApiPath('goods', DEMO_IDS.goods.private),
      shelfApiPath('goods', 'bad.id'),
      shelfApiPath('note'),
      shelfApiPath('cabinet', DEMO_IDS.cabinets.main),
    ])
      expect(await shelfAt(url), url).toEqual(newest);
    expect((await shelfAt(shelfApiPath('goods', DEMO_IDS.goods.removed))).work).toBe('咒术回战');
  });

  it('refuses an unknown kind in the one error shape', async () => {
    const res = await app.inject({ url: `${SHELF_API_PATH}?kind=poster` });
    expect(res.statusCode).toBe(400);
    expect(apiErrorSchema.parse(res.json()).error.code).toBeTruthy();
  });
});
