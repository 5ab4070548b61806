import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { demoLoginRequestSchema } from '@guquan/contract/session';
import { DEMO_TOKENS_PATH } from '../demo/stand-in-client.ts';
import type { StandInRoutes } from './stand-in-context.ts';

/** The JWKS a site verifies the stand-in's tokens with. */
export const jwksRoutes: StandInRoutes = (app, { keys }, done) => {
  app.get('/.well-known/jwks.json', async (_request, reply) =>
    reply.header('cache-control', 'max-age=300').send(keys.jwks()),
  );
  done();
};

/** Whether the request carries the site's service token (PLATFORM_API_TOKEN). */
export function hasServiceToken(request: FastifyRequest, apiToken: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header);
  const expected = Buffer.from(`Bearer ${apiToken}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function refuse(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).send({ error: { code, message } });
}

/**
 * Demo only: a token for a demo user, as the app gets one when its user logs in (no
 * `authTime`) or when it refreshes one (the same `authTime`, a later `iat`). The site's demo
 * log-in calls it with its service token.
 */
export const demoTokenRoutes: StandInRoutes = (app, { keys, secrets, issuer }, done) => {
  app.post(DEMO_TOKENS_PATH, async (request, reply) => {
    if (!hasServiceToken(request, secrets.apiToken)) {
      return refuse(reply, 401, 'unauthorized', 'The service token is missing or wrong.');
    }
    const body = demoLoginRequestSchema.safeParse(request.body);
    if (!body.success) return refuse(reply, 400, 'invalid_request', body.error.message);
    const signed = await keys.sign(issuer, body.data);
    return reply.code(201).header('cache-control', 'no-store').send(signed);
  });
  done();
};
