import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_BASE_PATH, OPENAPI_PATH } from '@guquan/contract/site-paths';

/**
 * The version of the API this document describes (its paths say /api/v1), not the server's
 * build: which build runs is the operators' to know, not anyone's who reads the document.
 */
export const API_VERSION = '1';

/**
 * Collects the API's routes into an OpenAPI 3 document, from the same zod schemas that check
 * requests and answers. Must be registered before the routes it describes. Pages, assets and
 * media are not part of the API and stay out of it.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: '谷圈 web API',
        description:
          'What the 谷圈 web site reads. Errors always have the shape { "error": { "code", "message" } }.',
        version: API_VERSION,
      },
    },
    transform: (input) =>
      input.url.startsWith(`${API_BASE_PATH}/`)
        ? jsonSchemaTransform(input)
        : { schema: { hide: true }, url: input.url },
  });
  // The document itself, made from the routes as they are when it is asked for.
  app.get(OPENAPI_PATH, { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
}
