import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { cabinetSchema, goodsSchema, noteSchema } from '@guquan/contract/share';
import { SHARE_KINDS, shareApiPath, type ShareKind } from '@guquan/contract/share-paths';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import {
  PUBLIC_DATA_CACHE_CONTROL,
  PUBLIC_REFUSAL_CACHE_CONTROL,
  SHARED_CACHE_CLOCK_SLACK_SECONDS,
  SHARED_CACHE_PROMISE_SECONDS,
} from '../http/shared-caches.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

async function expectError(
  url: string,
  status: number,
  code: string,
  // Cacheable as briefly as the item, so that it replaces a shared cache's copy of the item;
  // what is no share's state (a malformed address, no such endpoint) is not kept at all.
  cacheControl = PUBLIC_REFUSAL_CACHE_CONTROL,
) {
  const res = await app.inject({ url });
  expect(res.statusCode, url).toBe(status);
  const body = apiErrorSchema.parse(res.json());
  expect(body.error.code, url).toBe(code);
  expect(body.error.message).not.toMatch(/sqlite|select|\/tmp|at .*\.ts/i);
  expect(res.headers['cache-control']).toBe(cacheControl);
  return body;
}

describe('share API', () => {
  it('answers a goods, a cabinet and a note that the contract accepts, kept by shared caches within the promise', async () => {
    const cases = [
      ['goods', DEMO_IDS.goods.gallery, goodsSchema],
      ['cabinet', DEMO_IDS.cabinets.main, cabinetSchema],
      ['note', DEMO_IDS.notes.rich, noteSchema],
    ] as const;
    for (const [kind, id, schema] of cases) {
      const res = await app.inject({ url: shareApiPath(kind, id) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe(PUBLIC_DATA_CACHE_CONTROL);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(schema.parse(res.json()).id).toBe(id);
    }
  });

  it('lets browsers keep nothing and shared caches no more than the promise', () => {
    const seconds = (header: string, name: string) =>
      Number(new RegExp(`${name}=(\\d+)`).exec(header)?.[1] ?? 0);
    expect(PUBLIC_DATA_CACHE_CONTROL).toMatch(/^public, max-age=0, /);
    for (const header of [PUBLIC_DATA_CACHE_CONTROL, PUBLIC_REFUSAL_CACHE_CONTROL]) {
      expect(
        seconds(header, 's-maxage') +
          seconds(header, 'stale-while-revalidate') +
          SHARED_CACHE_CLOCK_SLACK_SECONDS,
      ).toBeLessThanOrEqual(SHARED_CACHE_PROMISE_SECONDS);
    }
    expect(PUBLIC_REFUSAL_CACHE_CONTROL).not.toContain('stale');
  });

  it('answers each state with its status and code', async () => {
    const cases: [ShareKind, string, number, string][] = [
      ['goods', DEMO_IDS.goods.private, 403, 'private'],
      ['goods', DEMO_IDS.goods.removed, 410, 'removed'],
      ['goods', DEMO_IDS.unknown, 404, 'not_found'],
      ['cabinet', DEMO_IDS.cabinets.private, 403, 'private'],
      ['cabinet', DEMO_IDS.cabinets.removed, 410, 'removed'],
      ['cabinet', DEMO_IDS.unknown, 404, 'not_found'],
      ['note', DEMO_IDS.notes.private, 403, 'private'],
      ['note', DEMO_IDS.notes.removed, 410, 'removed'],
      ['note', DEMO_IDS.unknown, 404, 'not_found'],
      // A goods id is no cabinet id.
      ['cabinet', DEMO_IDS.goods.gallery, 404, 'not_found'],
    ];
    for (const [kind, id, status, code] of cases) {
      await expectError(shareApiPath(kind, id), status, code);
    }
  });

  it('answers invalid_id for a missing or malformed id', async () => {
    const bad = [
      '',
      'x'.repeat(65),
      `${DEMO_IDS.goods.gallery}${'x'.repeat(49)}`,
      'x'.repeat(99),
      'AbCdEfGhIjKl%2F..',
      'AbCdEfGh.jKlMnOp',
      'AbCdEfGhIjKlMn==',
      '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00',
      '%E4%BA%94%E6%9D%A1%E6%82%9F%E5%90%A7%E5%94%A7%E5%90%A7',
      '..%2F..%2F..%2Fetc%2Fpasswd',
    ];
    for (const kind of SHARE_KINDS) {
      for (const id of bad) {
        const { error } = await expectError(shareApiPath(kind, id), 400, 'invalid_id');
        expect(error.message).toMatch(/missing or malformed/);
      }
    }
  });

  it('answers very long ids and broken percent-encoding in the one error shape', async () => {
    await expectError(shareApiPath('goods', 'x'.repeat(500)), 400, 'invalid_id');
    const { error } = await expectError(
      shareApiPath('goods', '%E0%A4%A'),
      400,
      'bad_request',
      'no-store',
    );
    expect(error.message).not.toContain('%E0');
  });

  it('answers a share path without its id segment', async () => {
    await expectError(shareApiPath('goods', ''), 400, 'invalid_id');
    await expectError(shareApiPath('note', '').slice(0, -1), 404, 'not_found', 'no-store');
  });

  it('ignores anything else in the query', async () => {
    for (const query of [
      '?a=1',
      '?id=other&lang=en',
      '?__proto__[x]=1&constructor=1',
      '?%FF=%FE',
    ]) {
      const res = await app.inject({
        url: `${shareApiPath('goods', DEMO_IDS.goods.gallery)}${query}`,
      });
      expect(res.statusCode, query).toBe(200);
      expect(goodsSchema.parse(res.json()).id).toBe(DEMO_IDS.goods.gallery);
    }
  });

  it('applies the cabinet and note rules', async () => {
    const cabinet = cabinetSchema.parse(
      (await app.inject({ url: shareApiPath('cabinet', DEMO_IDS.cabinets.main) })).json(),
    );
    expect(cabinet.itemCount).toBeGreaterThan(cabinet.items.length);
    expect(cabinet.items.map((item) => item.id)).not.toContain(DEMO_IDS.goods.private);

    const note = noteSchema.parse(
      (await app.inject({ url: shareApiPath('note', DEMO_IDS.notes.rich) })).json(),
    );
    expect(note.comments).toBeGreaterThanOrEqual(5);
    expect(note.topComments.length).toBeLessThanOrEqual(3);
  });

  it('sends hostile text as JSON data, byte for byte', async () => {
    const res = await app.inject({ url: shareApiPath('note', DEMO_IDS.notes.hostile) });
    const note = noteSchema.parse(res.json());
    expect(note.title).toContain('<script>alert(1)</script>');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers only GET (and HEAD)', async () => {
    const url = shareApiPath('goods', DEMO_IDS.goods.gallery);
    expect((await app.inject({ method: 'HEAD', url })).statusCode).toBe(200);
    const res = await app.inject({ method: 'POST', url });
    expect(res.statusCode).toBe(404);
    apiErrorSchema.parse(res.json());
  });
});
