import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseShareId, SHARE_KINDS, SHELF_API_PATH } from '@guquan/contract/share-paths';
import { workShelfSchema } from '@guquan/contract/share-shelf';
import { apiRoute } from '../http/api-paths.ts';
import { PUBLIC_DATA_CACHE_CONTROL } from '../http/shared-caches.ts';
import type { ShareReader } from './share-reader.ts';
import type { WorkShelfReader } from './work-shelf-reader.ts';

export interface ShelfRoutesOptions {
  /** The reader of the share pages (each item at most once per reuse window). */
  shares: ShareReader;
  shelves: WorkShelfReader;
}

const querySchema = z.object({
  kind: z.enum(SHARE_KINDS).describe('The kind of share whose page the shelf ends'),
  id: z
    .string()
    .max(200)
    .optional()
    .describe('Its public id; missing or malformed: the shelf of a page that names no item'),
});

/**
 * `GET /api/v1/shelf?kind=&id=`: the "more from this work" shelf of a share's page, for a page the
 * browser renders itself (a server-rendered page has it in its data). Answers for every state of
 * the share, as its page shows a shelf in every state; public goods only, so shared caches may
 * keep it as they keep the item (http/shared-caches.ts).
 */
export const shelfRoutes: FastifyPluginCallbackZod<ShelfRoutesOptions> = (
  app,
  { shares, shelves },
  done,
) => {
  app.get(
    apiRoute(SHELF_API_PATH),
    {
      schema: {
        summary: 'The "more from this work" shelf at the end of a share page',
        tags: ['shares'],
        querystring: querySchema,
        response: { 200: workShelfSchema },
      },
    },
    async (request, reply) => {
      const { kind } = request.query;
      const id = parseShareId(request.query.id);
      const shelf = await shelves.read(kind, id, await shares.read(kind, id));
      return reply.header('cache-control', PUBLIC_DATA_CACHE_CONTROL).send(shelf);
    },
  );
  done();
};
