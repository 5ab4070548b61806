import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { SHARE_KINDS, shareApiPath } from '@guquan/contract/share-paths';
import { buildTestApp } from '../test-support/test-app.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const documentSchema = z.object({
  openapi: z.string(),
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.looseObject({
        parameters: z.array(z.looseObject({ name: z.string(), in: z.string() })).optional(),
        responses: z.record(z.string(), z.unknown()),
      }),
    ),
  ),
});

describe('OpenAPI', () => {
  it('describes the share endpoints from their schemas, and nothing outside the API', async () => {
    const res = await app.inject({ url: `${API_BASE_PATH}/openapi.json` });
    expect(res.statusCode).toBe(200);
    const document = documentSchema.parse(res.json());
    expect(document.openapi).toMatch(/^3\./);
    for (const kind of SHARE_KINDS) {
      const operation = document.paths[shareApiPath(kind, '{id}')]?.get;
      expect(operation, kind).toBeDefined();
      expect(operation?.parameters).toContainEqual(
        expect.objectContaining({ name: 'id', in: 'path' }),
      );
      expect(Object.keys(operation?.responses ?? {}).sort()).toEqual([
        '200',
        '400',
        '403',
        '404',
        '410',
      ]);
    }
    for (const path of Object.keys(document.paths)) {
      expect(path.startsWith(`${API_BASE_PATH}/`), path).toBe(true);
      expect(path).not.toContain('*');
    }
  });
});
