import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { publicIdSchema, shareSchemas } from '@guquan/contract/share';
import {
  parseShareId,
  SHARE_FAILURES,
  SHARE_KINDS,
  shareApiPath,
  type ShareFailure,
  type ShareKind,
} from '@guquan/contract/share-paths';
import { apiError } from '../http/api-error.ts';
import { PUBLIC_DATA_CACHE_CONTROL, PUBLIC_REFUSAL_CACHE_CONTROL } from '../http/shared-caches.ts';
import { apiRoute } from '../http/api-paths.ts';
import type { ShareReader } from './share-reader.ts';

export interface ShareRoutesOptions {
  shares: ShareReader;
}

const FAILURE_MESSAGES: Readonly<Record<ShareKind, Readonly<Record<ShareFailure, string>>>> = {
  goods: {
    invalid_id: 'The goods id is missing or malformed.',
    private: 'The owner keeps these goods private.',
    not_found: 'There are no such goods.',
    removed: 'These goods have been removed.',
  },
  cabinet: {
    invalid_id: 'The cabinet id is missing or malformed.',
    private: 'The owner keeps this cabinet private.',
    not_found: 'There is no such cabinet.',
    removed: 'This cabinet has been removed.',
  },
  note: {
    invalid_id: 'The note id is missing or malformed.',
    private: 'The author keeps this note private.',
    not_found: 'There is no such note.',
    removed: 'This note has been removed.',
  },
};

const SUMMARIES: Readonly<Record<ShareKind, string>> = {
  goods: 'A shared goods (谷子): images, details, owner',
  cabinet: 'A shared cabinet (痛柜): cover, owner and the goods anybody may see',
  note: 'A shared note: text, images, counts and the top comments',
};

const paramsSchema = z.object({
  id: publicIdSchema.describe('The public id (1 to 64 of A–Z a–z 0–9 _ -)'),
});

const errorResponses = Object.fromEntries(
  Object.values(SHARE_FAILURES).map((status) => [status, apiErrorSchema]),
) as Record<(typeof SHARE_FAILURES)[ShareFailure], typeof apiErrorSchema>;

/**
 * GET a goods, cabinet or note by its public id, for the share pages in the browser. Registered
 * under the API prefix; the paths come from the contract, as the web app builds them.
 */
export const shareRoutes: FastifyPluginCallbackZod<ShareRoutesOptions> = (
  app,
  { shares },
  done,
) => {
  for (const kind of SHARE_KINDS) {
    const path = apiRoute(shareApiPath(kind));
    app.get(
      path,
      {
        schema: {
          summary: SUMMARIES[kind],
          tags: ['shares'],
          params: paramsSchema,
          response: { 200: shareSchemas[kind], ...errorResponses },
        },
        // A malformed id is the share's own `invalid_id`, not a generic bad request.
        attachValidation: true,
      },
      async (request, reply) => {
        const id = parseShareId((request.params as { id?: unknown }).id);
        const result = await shares.read(kind, id);
        // Shared caches may keep either within the promise (http/shared-caches.ts); a refusal
        // as briefly, so it replaces a stored copy of the item the moment it is asked again.
        if (result.state !== 'ok') {
          return reply
            .code(SHARE_FAILURES[result.state])
            .header('cache-control', PUBLIC_REFUSAL_CACHE_CONTROL)
            .send(apiError(result.state, FAILURE_MESSAGES[kind][result.state]));
        }
        return reply.header('cache-control', PUBLIC_DATA_CACHE_CONTROL).send(result.item);
      },
    );
    // The same path without an id (`…/goods/`) is a share with its id missing.
    app.get(path.slice(0, -':id'.length), { schema: { hide: true } }, (_request, reply) =>
      reply
        .code(400)
        .header('cache-control', PUBLIC_REFUSAL_CACHE_CONTROL)
        .send(apiError('invalid_id', FAILURE_MESSAGES[kind].invalid_id)),
    );
  }
  done();
};
